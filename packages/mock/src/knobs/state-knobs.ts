// The knobs over the service as a whole: its settings, what it received, what it would have
// e-mailed, and a reset to a clean start.
import { sendEmpty, sendJson } from '@service-auth/http'
import type { KnobHandler } from './knob-context.js'
import { SETTING_NAMES, SETTING_RANGES } from '../service/settings.js'
import { knobFields } from './knob-fields.js'
import type { SettingsKnob } from './knob-wire.js'

export const configure: KnobHandler = (context, exchange) => {
  const fields = knobFields(exchange, SETTING_NAMES)
  const changes = Object.fromEntries(
    SETTING_NAMES.map((name) => [name, fields.integer(name, SETTING_RANGES[name].min, SETTING_RANGES[name].max)]),
  ) as SettingsKnob
  fields.check()
  for (const [name, value] of Object.entries(changes)) {
    if (value !== undefined) context.service.settings[name as keyof SettingsKnob] = value
  }
  // A new limit starts from fresh windows, so a test sees exactly the limit it set.
  if (changes.rateLimit !== undefined || changes.browserRateLimit !== undefined || changes.rateLimitWindowMs !== undefined) {
    context.service.access.rateLimiter.clear()
  }
  sendJson(exchange.res, 200, context.service.settings)
}

export const showConfig: KnobHandler = (context, { res }) => sendJson(res, 200, context.service.settings)

export const listRequests: KnobHandler = (context, { res }) => sendJson(res, 200, context.log.entries())

export const listOutbox: KnobHandler = (context, { res }) => sendJson(res, 200, context.service.stores.outbox.list())

export const clearOutbox: KnobHandler = (context, { res }) => {
  context.service.stores.outbox.clear()
  sendEmpty(res, 204)
}

/**
 * Forgets every challenge, identity, enrollment, session, app configuration, e-mail, rule and
 * request, and restores the settings; then what is plugged in puts back what it needs (the
 * test keys' identity, when the service has them).
 */
export const reset: KnobHandler = (context, exchange) => {
  knobFields(exchange, []).check()
  context.service.stores.challenges.clear()
  context.service.stores.identities.clear()
  context.service.stores.enrollments.clear()
  context.service.stores.sessions.clear()
  context.service.stores.configurations.clear()
  context.service.stores.outbox.clear()
  context.service.access.rateLimiter.clear()
  context.faults.failRules.clear()
  context.faults.delayRules.clear()
  context.faults.holds.clear()
  context.log.clear()
  Object.assign(context.service.settings, context.defaults)
  // A clean start is the one the service had.
  context.service.hooks.reset()
  sendEmpty(exchange.res, 204)
}
