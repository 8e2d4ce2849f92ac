// POST /__knobs/fail, /__knobs/delay and /__knobs/hold: the next N matching requests fail, wait a
// while, or wait until POST /__knobs/release (GET /__knobs/hold lists those waiting). Each takes
// a `key`, which limits it to that API key's requests (see fault-rules.ts). DELETE
// /__knobs/fail ends an outage of the test's choosing: whatever failures are left go unused.
import { sendEmpty, sendJson } from '@service-auth/http'
import type { KnobHandler } from './knob-context.js'
import { RULE_MATCHES } from './fault-rules.js'
import { fieldsOf, keyField, keyParam, knobFields, readFailFields } from './knob-fields.js'
import { MAX_TIMER_MS } from '../service/settings.js'
import type { DelayKnob, FailKnob, HoldKnob, KeyScope, Released } from './knob-wire.js'

const KEY_FIELDS = fieldsOf<KeyScope>({ key: true })

export const fail: KnobHandler = (context, exchange) => {
  const fields = knobFields(
    exchange,
    fieldsOf<FailKnob>({ status: true, count: true, retryAfter: true, body: true, contentType: true, location: true, network: true, match: true, key: true }),
  )
  const rule = readFailFields(fields, { statusRequired: true })
  const match = fields.choice('match', RULE_MATCHES) ?? 'any'
  const key = keyField(fields, context)
  fields.check()
  context.faults.failRules.add({ ...rule, status: rule.status!, match, key })
  sendEmpty(exchange.res, 204)
}

/**
 * Forgets the failures still queued: all, per-challenge ones too, or those queued through one
 * API key with POST /__knobs/fail. A browser may try a request again by itself (Firefox does, up to ten
 * times, when a connection drops unanswered), so how many failures a page sees is the browser's
 * to say: a test queues plenty, and ends them here.
 */
export const endFailures: KnobHandler = (context, exchange) => {
  const fields = knobFields(exchange, KEY_FIELDS)
  const key = keyField(fields, context)
  fields.check()
  context.faults.failRules.clear(key)
  sendEmpty(exchange.res, 204)
}

export const delay: KnobHandler = (context, exchange) => {
  const fields = knobFields(exchange, fieldsOf<DelayKnob>({ ms: true, count: true, match: true, key: true }))
  const ms = fields.integer('ms', 0, MAX_TIMER_MS, { required: true })
  const count = fields.integer('count', 1, 1000) ?? 1
  const match = fields.choice('match', RULE_MATCHES) ?? 'any'
  const key = keyField(fields, context)
  fields.check()
  context.faults.delayRules.add({ ms: ms!, count, match, key })
  sendEmpty(exchange.res, 204)
}

export const hold: KnobHandler = (context, exchange) => {
  const fields = knobFields(exchange, fieldsOf<HoldKnob>({ count: true, match: true, key: true }))
  const count = fields.integer('count', 1, 1000) ?? 1
  const match = fields.choice('match', RULE_MATCHES) ?? 'any'
  const key = keyField(fields, context)
  fields.check()
  context.faults.holds.add({ count, match, key })
  sendEmpty(exchange.res, 204)
}

export const listHeld: KnobHandler = (context, { res, url }) => sendJson(res, 200, context.faults.holds.waiting(keyParam(context, url)))

export const release: KnobHandler = (context, exchange) => {
  const fields = knobFields(exchange, KEY_FIELDS)
  const key = keyField(fields, context)
  fields.check()
  const answer: Released = { released: context.faults.holds.release(key) }
  sendJson(exchange.res, 200, answer)
}
