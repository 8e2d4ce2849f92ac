// Failures and delays that tests queue through the knobs, applied to the next matching requests.
// Rules are taken in the order they were queued, so a test can script a sequence. A rule asked
// for through an API key matches only that key's requests: tests sharing one mock, each with a
// key of its own, never use up each other's rules. A rule without a key matches every key's, as
// the knobs always did.
import type { FailFields } from './knob-wire.js'

/** What a /v1/ request is, for matching: one kind per endpoint group. */
export const REQUEST_KINDS = [
  'create',
  'status',
  'token',
  'image',
  'enroll',
  'identities',
  'authenticate',
  'check',
  'configuration',
  'devices',
  'sessions',
] as const
export type RequestKind = (typeof REQUEST_KINDS)[number]

/** Which requests a rule applies to; `any` is every /v1/ request except CORS preflights. */
export type RuleMatch = RequestKind | 'any'
export const RULE_MATCHES: readonly RuleMatch[] = [...REQUEST_KINDS, 'any']

/** The request a rule is matched against. */
export interface RuleTarget {
  kind: RequestKind
  /** The challenge a status or image request is about. */
  challengeId?: string
  /** The API key the request belongs to (see request-key.ts), when it names one. */
  key?: string
}

/** What every rule matches on. */
export interface RuleScope {
  match: RuleMatch
  /** Only requests about this challenge (the per-challenge fail knob). */
  challengeId?: string
  /** Only requests of this API key; every key's without one. */
  key?: string
}

const ruleMatches = (rule: RuleScope, { kind, challengeId, key }: RuleTarget): boolean =>
  (rule.match === 'any' || rule.match === kind) &&
  (rule.challengeId === undefined || rule.challengeId === challengeId) &&
  (rule.key === undefined || rule.key === key)

/** A failure as the knobs' wire names it (knob-wire.ts), its count and status settled. */
export interface FailRule extends RuleScope, Omit<FailFields, 'count' | 'status' | 'network'> {
  /** Requests still to fail. */
  count: number
  status: number
  network: boolean
  /** The problem JSON's detail, for a rule that is not the fail knob's (see hooks.ts). */
  detail?: string
}

export interface DelayRule extends RuleScope {
  count: number
  ms: number
}

export class RuleQueue<R extends RuleScope & { count: number }> {
  #rules: R[] = []

  add(rule: R): void {
    this.#rules.push(rule)
  }

  /** The first rule matching the request, counted down by one use; undefined if none matches. */
  take(target: RuleTarget): R | undefined {
    const index = this.#rules.findIndex((rule) => ruleMatches(rule, target))
    if (index < 0) return undefined
    const rule = this.#rules[index]!
    rule.count -= 1
    if (rule.count <= 0) this.#rules.splice(index, 1)
    return rule
  }

  /** Forgets the rules: all of them, or those asked for through one API key. */
  clear(key?: string): void {
    this.#rules = key === undefined ? [] : this.#rules.filter((rule) => rule.key !== key)
  }
}
