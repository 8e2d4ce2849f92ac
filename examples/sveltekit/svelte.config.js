// @ts-check
// Built with adapter-node (`vite build`, then `node build`). Every page carries a Content Security
// Policy, SvelteKit's nonce on its own inline script: the widget needs no 'unsafe-inline'.
// src/hooks.server.ts adds the service's origin to connect-src, known only at run time.
import adapter from '@sveltejs/adapter-node'

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: {
    adapter: adapter(),
    csp: {
      mode: 'nonce',
      directives: {
        'default-src': ['self'],
        'script-src': ['self'],
        'img-src': ['self', 'data:'],
        // SvelteKit's route announcer (a visually hidden live region) carries a style attribute:
        // that one style alone, by its hash, rather than 'unsafe-inline'. Should a SvelteKit
        // release change it, the browser's console names the new hash. The widget needs none.
        'style-src': ['self', 'unsafe-hashes', 'sha256-S8qMpvofolR8Mpjy4kQvEm7m1q8clzU4dfDH0AmvZjo='],
        'base-uri': ['none'],
        'object-src': ['none'],
        'frame-ancestors': ['none'],
      },
    },
  },
}
