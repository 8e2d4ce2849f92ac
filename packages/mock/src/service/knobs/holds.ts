// Requests held at the service until a test lets them go (/__knobs/hold, /__knobs/release). A
// delay is a window of time, which a busy machine can miss: a test that must act while a request
// waits (delete the identity while the controller confirms, say) holds it instead, acts, and
// releases it, however long each step takes.
import { RuleQueue, type RequestKind, type RuleMatch, type RuleTarget } from './fault-rules.ts'

export interface HoldRule {
  match: RuleMatch
  /** Requests still to hold. */
  count: number
}

/** A request waiting for its release, as GET /__knobs/hold lists it. */
export interface HeldRequest {
  kind: RequestKind
  method: string
  /** The path without the query, which may carry a polling secret. */
  path: string
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
    return new Promise((release) => this.#waiting.push({ request: { kind: target.kind, method, path, since: Date.now() }, release }))
  }

  /** The requests waiting now, oldest first. */
  waiting(): HeldRequest[] {
    return this.#waiting.map(({ request }) => request)
  }

  /** Lets every waiting request go on, oldest first; rules not used yet stay. How many went. */
  release(): number {
    const released = this.#waiting
    this.#waiting = []
    for (const { release } of released) release()
    return released.length
  }

  /** Forgets the rules and lets the waiting requests go: nothing stays held past a reset. */
  clear(): void {
    this.#rules.clear()
    this.release()
  }
}
