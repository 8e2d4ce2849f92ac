// The example application's own sign-in sessions: what the controller creates once the
// service's token checks out, so /welcome can tell who is signed in.
import { randomBytes } from 'node:crypto'

const COOKIE_NAME = 'sid'
// The demo never needs more; the oldest sessions go first.
const MAX_SESSIONS = 10_000

export class Sessions {
  readonly #subjects = new Map<string, string>()

  /**
   * Starts a session for `subject` under a fresh id and returns the Set-Cookie value for it.
   * The session the request already had ends: an id someone saw or planted before the sign-in
   * is worth nothing after it.
   */
  start(subject: string, cookieHeader: string | undefined): string {
    const previous = sessionId(cookieHeader)
    if (previous !== undefined) this.#subjects.delete(previous)
    const id = randomBytes(24).toString('base64url')
    this.#subjects.set(id, subject)
    if (this.#subjects.size > MAX_SESSIONS) this.#subjects.delete(this.#subjects.keys().next().value!)
    // HttpOnly: page scripts, the embed included, have no business reading it.
    // Lax: sent when the embed navigates to /welcome, not on cross-site POSTs.
    return `${COOKIE_NAME}=${id}; Path=/; HttpOnly; SameSite=Lax`
  }

  /** Who the request's session cookie belongs to, if anyone. */
  subjectOf(cookieHeader: string | undefined): string | undefined {
    const id = sessionId(cookieHeader)
    return id === undefined ? undefined : this.#subjects.get(id)
  }

  clear(): void {
    this.#subjects.clear()
  }

  /** Ends the request's session and returns the Set-Cookie value that removes the cookie. */
  end(cookieHeader: string | undefined): string {
    const id = sessionId(cookieHeader)
    if (id !== undefined) this.#subjects.delete(id)
    return `${COOKIE_NAME}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`
  }
}

function sessionId(cookieHeader: string | undefined): string | undefined {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = pair.trim().split('=')
    if (name === COOKIE_NAME) return value.join('=')
  }
  return undefined
}
