// The example application's own user store: the accounts that may sign in here. The service
// knows identities; whether one of them is a user of this site, and may sign in, is the site's
// call (spec section 4, controller step 4). Kept in the store, like the service's state.
import type { Collection } from '@service-auth/mock/service'

export interface AppUser {
  identifier: string
  /** False for an account the site has barred: the controller refuses it (403). */
  allowed: boolean
}

/** As stored: the user and when it was last added, for the oldest-first limit. */
export type UserRecord = AppUser & { seq: number }

// The demo never needs more; the oldest accounts go first.
const MAX_USERS = 10_000

export class Users {
  /** In the order they were added (Map keeps insertion order), the oldest first. */
  readonly #users = new Map<string, UserRecord>()
  #seq = 0

  constructor(private readonly records: Collection<UserRecord>) {
    for (const user of records.load().sort((a, b) => a.seq - b.seq)) this.#users.set(user.identifier, user)
    this.#seq = [...this.#users.values()].at(-1)?.seq ?? 0
  }

  /** Adds the user, or updates whether a known one may sign in. */
  add(identifier: string, { allowed = true } = {}): AppUser {
    const user = { identifier, allowed, seq: ++this.#seq }
    this.#users.delete(identifier)
    this.#users.set(identifier, user)
    this.records.put(identifier, user)
    if (this.#users.size > MAX_USERS) {
      const oldest = this.#users.keys().next().value!
      this.#users.delete(oldest)
      this.records.delete(oldest)
    }
    return { identifier, allowed }
  }

  /** The user who may sign in with this identifier, if there is one. */
  maySignIn(identifier: string): AppUser | undefined {
    const user = this.#users.get(identifier)
    return user?.allowed ? { identifier: user.identifier, allowed: user.allowed } : undefined
  }

  clear(): void {
    this.#users.clear()
    this.records.clear()
  }
}
