// The example application's own user store: the accounts that may sign in here. The service
// knows identities; whether one of them is a user of this site, and may sign in, is the site's
// call (spec section 4, controller step 4). In memory, like everything in the demo.

export interface AppUser {
  identifier: string
  /** False for an account the site has barred: the controller refuses it (403). */
  allowed: boolean
}

// The demo never needs more; the oldest accounts go first.
const MAX_USERS = 10_000

export class Users {
  readonly #users = new Map<string, AppUser>()

  /** Adds the user, or updates whether a known one may sign in. */
  add(identifier: string, { allowed = true } = {}): AppUser {
    const user = { identifier, allowed }
    this.#users.delete(identifier)
    this.#users.set(identifier, user)
    if (this.#users.size > MAX_USERS) this.#users.delete(this.#users.keys().next().value!)
    return user
  }

  /** The user who may sign in with this identifier, if there is one. */
  maySignIn(identifier: string): AppUser | undefined {
    const user = this.#users.get(identifier)
    return user?.allowed ? user : undefined
  }

  clear(): void {
    this.#users.clear()
  }
}
