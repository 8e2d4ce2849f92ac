// The example application's own sign-in sessions: what the controller creates once the
// service's token checks out, so /welcome can tell who is signed in. Kept in the store, so a
// restart of the demo signs nobody out. Sessions are kept by the SHA-256 of their id, so the
// data directory and its exports hold no cookie that would sign anyone in.
import { createHash, randomBytes } from 'node:crypto'
import type { Collection } from '@service-auth/mock/service'

const COOKIE_NAME = 'sid'
// The demo never needs more; the oldest sessions go first.
const MAX_SESSIONS = 10_000

/** As stored: the hash of the session's id, who it belongs to, and its place for the oldest-first limit. */
export interface SessionRecord {
  idHash: string
  subject: string
  seq: number
}

const hashOf = (id: string) => createHash('sha256').update(id).digest('base64url')

export class Sessions {
  /** Hash of the session id > subject, the oldest first (Map keeps insertion order). */
  readonly #subjects = new Map<string, string>()
  #seq = 0

  constructor(private readonly records: Collection<SessionRecord>) {
    const stored = records.load().sort((a, b) => a.seq - b.seq)
    for (const { idHash, subject } of stored) this.#subjects.set(idHash, subject)
    this.#seq = stored.at(-1)?.seq ?? 0
  }

  /**
   * Starts a session for `subject` under a fresh id and returns the Set-Cookie value for it.
   * The session the request already had ends: an id someone saw or planted before the sign-in
   * is worth nothing after it.
   */
  start(subject: string, cookieHeader: string | undefined): string {
    const previous = sessionId(cookieHeader)
    if (previous !== undefined) this.#forget(hashOf(previous))
    const id = randomBytes(24).toString('base64url')
    const idHash = hashOf(id)
    this.#subjects.set(idHash, subject)
    this.records.put(idHash, { idHash, subject, seq: ++this.#seq })
    if (this.#subjects.size > MAX_SESSIONS) this.#forget(this.#subjects.keys().next().value!)
    // HttpOnly: page scripts, the embed included, have no business reading it.
    // Lax: sent when the embed navigates to /welcome, not on cross-site POSTs.
    return `${COOKIE_NAME}=${id}; Path=/; HttpOnly; SameSite=Lax`
  }

  /** Who the request's session cookie belongs to, if anyone. */
  subjectOf(cookieHeader: string | undefined): string | undefined {
    const id = sessionId(cookieHeader)
    return id === undefined ? undefined : this.#subjects.get(hashOf(id))
  }

  clear(): void {
    this.#subjects.clear()
    this.records.clear()
  }

  /** Ends the request's session and returns the Set-Cookie value that removes the cookie. */
  end(cookieHeader: string | undefined): string {
    const id = sessionId(cookieHeader)
    if (id !== undefined) this.#forget(hashOf(id))
    return `${COOKIE_NAME}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`
  }

  #forget(idHash: string): void {
    if (this.#subjects.delete(idHash)) this.records.delete(idHash)
  }
}

function sessionId(cookieHeader: string | undefined): string | undefined {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = pair.trim().split('=')
    if (name === COOKIE_NAME) return value.join('=')
  }
  return undefined
}
