// Requests held at the service until a test lets them go (/__knobs/hold, /__knobs/release). A
// delay is a window of time, which a busy machine can miss: a test that must act while a request
// waits (delete the identity while the controller confirms, say) holds it instead, acts, and
// releases it, however long each step takes. A hold asked for through an API key holds only that
// key's requests, and a release through it lets only those go: tests sharing one mock never
// release each other's.
import { RuleQueue, type RequestKind, type RuleScope, type RuleTarget } from './fault-rules.js'

export interface HoldRule extends RuleScope {
  /** Requests still to hold. */
  count: number
}

/** A request waiting for its release, as GET /__knobs/hold lists it. */
export interface HeldRequest {
  kind: RequestKind
  method: string
  /** The path without the query, which may carry a polling secret. */
  path: string
  /** The API key the request belongs to, when it names one. */
  key: string | null
  /** Epoch milliseconds: when it began to wait. */
  since: number
}

export class Holds {
  readonly #rules = new RuleQueue<HoldRule>()
  #waiting: { request: HeldRequest; release: () => void }[] = []

  add(rule: HoldRule): void {
    this.#rules.add(rule)
  }

  /** When a rule matches, a promise that settles on release; undefined when the request goes on at once. */
  take(target: RuleTarget, { method, path }: { method: string; path: string }): Promise<void> | undefined {
    if (!this.#rules.take(target)) return undefined
    const request = { kind: target.kind, method, path, key: target.key ?? null, since: Date.now() }
    return new Promise((release) => this.#waiting.push({ request, release }))
  }

  /** The requests waiting now, oldest first: all of them, or those of one API key. */
  waiting(key?: string): HeldRequest[] {
    return this.#waiting.filter(({ request }) => key === undefined || request.key === key).map(({ request }) => request)
  }

  /** Lets the waiting requests go on (all, or one API key's), oldest first; rules not used yet stay. How many went. */
  release(key?: string): number {
    const released = this.#waiting.filter(({ request }) => key === undefined || request.key === key)
    this.#waiting = this.#waiting.filter((waiting) => !released.includes(waiting))
    for (const { release } of released) release()
    return released.length
  }

  /**
   * Forgets the rules and lets the waiting requests go: all of them, as nothing stays held past
   * a reset, or those of one API key, as when it is freed.
   */
  clear(key?: string): void {
    this.#rules.clear(key)
    this.release(key)
  }
}
