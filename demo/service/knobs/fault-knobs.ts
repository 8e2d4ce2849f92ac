// POST /__knobs/fail and /__knobs/delay: the next N matching requests fail or wait.
import { sendEmpty } from '../../common/respond.ts'
import type { Handler } from '../context.ts'
import { RULE_MATCHES } from './fault-rules.ts'
import { FAIL_FIELDS, knobFields, MAX_KNOB_MS, readFailFields } from './knob-fields.ts'

export const fail: Handler = (context, exchange) => {
  const fields = knobFields(exchange, [...FAIL_FIELDS, 'match'])
  const rule = readFailFields(fields, { statusRequired: true })
  const match = fields.choice('match', RULE_MATCHES) ?? 'any'
  fields.check()
  context.failRules.add({ ...rule, status: rule.status!, match })
  sendEmpty(exchange.res, 204)
}

export const delay: Handler = (context, exchange) => {
  const fields = knobFields(exchange, ['ms', 'count', 'match'])
  const ms = fields.integer('ms', 0, MAX_KNOB_MS, { required: true })
  const count = fields.integer('count', 1, 1000) ?? 1
  const match = fields.choice('match', RULE_MATCHES) ?? 'any'
  fields.check()
  context.delayRules.add({ ms: ms!, count, match })
  sendEmpty(exchange.res, 204)
}
