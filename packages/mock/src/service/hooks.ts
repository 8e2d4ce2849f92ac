// Where a feature plugs into the service without the core handlers knowing of it: the test keys
// (test-keys/test-keys.ts) are such a feature. Each hook is a question a handler asks, or a thing
// it tells, at one point of its work; what is plugged in decides the answer.
import type { Challenge } from './challenges/challenge-store.js'
import { RuleQueue, type FailRule, type RuleTarget } from '../knobs/fault-rules.js'

export class ServiceHooks {
  // A queue whose rules never run out (their count stays Infinity), so the knobs' matching applies.
  readonly #standingFaults = new RuleQueue<FailRule>()
  readonly #pollObservers: ((challenge: Challenge) => void)[] = []
  readonly #lifetimes = new Map<string, number>()
  readonly #resetObservers: (() => void)[] = []

  /**
   * A failure every matching request gets, for as long as the service runs: asked after the
   * knobs' queued rules, so a test's own rule still comes first. A reset keeps it.
   */
  addStandingFault(rule: Omit<FailRule, 'count'>): void {
    this.#standingFaults.add({ ...rule, count: Infinity })
  }

  /** The standing failure for the request, if any. */
  standingFault(target: RuleTarget): FailRule | undefined {
    return this.#standingFaults.take(target)
  }

  /** Told of each status poll of a challenge by the browser that created it (the poll carried its secret). */
  onPoll(observer: (challenge: Challenge) => void): void {
    this.#pollObservers.push(observer)
  }

  polled(challenge: Challenge): void {
    for (const observer of this.#pollObservers) observer(challenge)
  }

  /** New challenges of `key` live `ms`, whatever the challengeTtlMs setting says. */
  setChallengeLifetime(key: string, ms: number): void {
    this.#lifetimes.set(key, ms)
  }

  /** The lifetime of `key`'s new challenges, if it has one of its own. */
  challengeLifetime(key: string): number | undefined {
    return this.#lifetimes.get(key)
  }

  /** Run after each reset, to put back what a feature needs from the start (it runs its own start itself). */
  onReset(observer: () => void): void {
    this.#resetObservers.push(observer)
  }

  reset(): void {
    for (const observer of this.#resetObservers) observer()
  }
}
