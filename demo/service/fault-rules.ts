// Failures and delays that tests queue through the knobs, applied to the next matching requests.
// Rules are taken in the order they were queued, so a test can script a sequence.

/** Which browser-facing request a rule applies to; `any` is every /v1/ request except preflights. */
export type RuleMatch = 'create' | 'status' | 'any'
export const RULE_MATCHES: readonly RuleMatch[] = ['create', 'status', 'any']

/** What a request is, for matching; null for requests no rule applies to. */
export type RequestKind = 'create' | 'status' | 'image'

export interface FailRule {
  match: RuleMatch
  /** Requests still to fail. */
  count: number
  status: number
  retryAfter?: string
  /** A raw body to send instead of problem JSON. */
  body?: string
  contentType?: string
  /** Drop the connection without any response. */
  network: boolean
}

export interface DelayRule {
  match: RuleMatch
  count: number
  ms: number
}

export class RuleQueue<R extends { match: RuleMatch; count: number }> {
  #rules: R[] = []

  add(rule: R): void {
    this.#rules.push(rule)
  }

  /** The first rule matching `kind`, counted down by one use; undefined if none matches. */
  take(kind: RequestKind): R | undefined {
    const index = this.#rules.findIndex((rule) => rule.match === 'any' || rule.match === kind)
    if (index < 0) return undefined
    const rule = this.#rules[index]!
    rule.count -= 1
    if (rule.count <= 0) this.#rules.splice(index, 1)
    return rule
  }

  clear(): void {
    this.#rules = []
  }
}
