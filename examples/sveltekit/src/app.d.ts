// SvelteKit's app types. The signed-in user, found by hooks.server.ts from the session cookie.
declare global {
  namespace App {
    interface Locals {
      user?: { name: string }
    }
  }
}

export {}
