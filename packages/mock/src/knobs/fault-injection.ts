// The step in front of the service's /v1/ endpoints where the knobs act (server.ts runs it once
// the endpoint is known, before its handler): it counts a challenge's status polls, and makes the
// request wait (a delay, a hold until released), fail as a test asked (/__knobs/fail), or fail
// as a plugged-in feature always has it (test-unavailable's 503). The handlers know none of it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { HttpProblem, sendBytes, sendEmpty, sendProblem } from '@service-auth/http'
import type { ApiRoute, Exchange } from '../service/context.js'
import type { FailRule, RuleTarget } from './fault-rules.js'
import type { KnobContext } from './knob-context.js'
import { requestKey } from './request-key.js'

/**
 * The answers a knob `fail` rule forced: off the contract (openapi.yaml) on purpose, with any
 * status, body and content type a test asked for, so the tests that check every answer against
 * the contract leave these alone. Nothing on the wire tells them apart. A standing rule of the
 * hooks (test-unavailable's 503) is the service's own answer, and held to the contract.
 */
export const forcedByKnob = new WeakSet<ServerResponse>()

/**
 * Applies the knobs to a request for `route`; true when it is answered (or dropped) here, or its
 * browser went away while it waited, and its handler must not run.
 */
export async function injectFaults(knobs: KnobContext, route: ApiRoute, { req, res, url, params, body }: Exchange): Promise<boolean> {
  const { stores, timers, hooks } = knobs.service
  const { challenges } = stores
  const aboutChallenge = route.kind === 'status' || route.kind === 'token' || route.kind === 'image' ? params[0] : undefined
  if (route.kind === 'status') {
    const challenge = challenges.get(aboutChallenge ?? '')
    if (challenge) challenge.polls += 1
  }
  const key = requestKey(challenges, { kind: route.kind, challengeId: aboutChallenge, body, authorization: req.headers.authorization })
  const target: RuleTarget = { kind: route.kind, challengeId: aboutChallenge, key }
  const delay = knobs.faults.delayRules.take(target)
  if (delay) {
    await timers.sleep(delay.ms)
    // A browser that gave up meanwhile (its page closed) must not use up the rules queued for the
    // next one: tests share the service, and a held request outlives the test that made it.
    if (req.socket.destroyed) return true
  }
  const held = knobs.faults.holds.take(target, { method: req.method ?? '', path: url.pathname })
  if (held) {
    await held
    if (req.socket.destroyed) return true
  }
  const queued = knobs.faults.failRules.take(target)
  if (queued) {
    answerWithFailure(req, res, queued, url, { byKnob: true })
    return true
  }
  const standing = hooks.standingFault(target)
  if (standing) {
    answerWithFailure(req, res, standing, url, { byKnob: false })
    return true
  }
  return false
}

/** Answers as a `fail` rule says (a knob's, or a standing one of the hooks), instead of handling the request. */
function answerWithFailure(req: IncomingMessage, res: ServerResponse, rule: FailRule, url: URL, { byKnob }: { byKnob: boolean }): void {
  if (rule.network) {
    req.socket.destroy()
    return
  }
  if (byKnob) forcedByKnob.add(res)
  const headers: Record<string, string> = {
    ...(rule.retryAfter !== undefined && { 'Retry-After': rule.retryAfter }),
    ...(rule.location !== undefined && { Location: rule.location }),
  }
  if (rule.status === 204 || rule.status === 304) {
    sendEmpty(res, rule.status, headers)
  } else if (rule.body !== undefined || rule.contentType !== undefined) {
    sendBytes(res, rule.status, rule.body ?? '', rule.contentType ?? 'text/plain; charset=utf-8', headers)
  } else {
    sendProblem(res, new HttpProblem(rule.status, rule.detail ?? 'This failure was queued with /__knobs/fail.', undefined, headers), url.pathname)
  }
}
