// POST /__knobs/keys: a fresh API key of its own app, for one test. Tests that share one mock
// (started once for a whole suite) each take a key, and name it to the knobs: the failures,
// delays, holds and signings they ask for then touch only their own requests and challenges,
// and their identities are their own app's. A reset keeps such keys, as it keeps the keys the
// service started with. DELETE /__knobs/keys/{key} frees one when its test ends (the kit's
// isolated connection does, in close()), with everything of its own: a shared mock that hands out
// a key per test for hours keeps only the keys of the tests still running. A key nobody used
// for an hour (its test crashed before it could free it) is freed the same way, when the next
// key is taken.
import { generateCredentials } from '../common/credentials.js'
import { HttpProblem, sendEmpty, sendJson } from '@service-auth/http'
import type { KnobHandler, KnobContext } from './knob-context.js'
import { knobFields } from './knob-fields.js'
import type { IssuedKey } from './knob-wire.js'

export const createKey: KnobHandler = (context, exchange) => {
  knobFields(exchange, []).check()
  for (const key of context.service.access.keys.idle()) forgetKey(context, key)
  const { apiKey, apiSecret } = generateCredentials()
  // Any origin, every permission: a test's page may be served from anywhere, and its controller does everything a controller does.
  const { key, app } = context.service.access.keys.addForOneTest({ key: apiKey, secret: apiSecret })
  const issued: IssuedKey = { key, secret: apiSecret, app }
  sendJson(exchange.res, 201, issued)
}

export const freeKey: KnobHandler = (context, exchange) => {
  knobFields(exchange, []).check()
  const key = exchange.params[0]!
  if (!context.service.access.keys.get(key)) throw new HttpProblem(404, `There is no API key ${key}.`)
  if (!context.service.access.keys.isForOneTest(key))
    throw new HttpProblem(409, `The API key ${key} was not taken with POST /__knobs/keys: only such keys can be freed.`)
  forgetKey(context, key)
  sendEmpty(exchange.res, 204)
}

/**
 * A reset of one key: the key, its rules, holds and rate windows, its challenges, and its app's
 * identities, enrollments, sessions and settings. The app is the key's alone (addForOneTest).
 */
function forgetKey(context: KnobContext, key: string): void {
  const app = key
  context.service.access.keys.remove(key)
  context.faults.failRules.clear(key)
  context.faults.delayRules.clear(key)
  context.faults.holds.clear(key)
  context.service.access.rateLimiter.forget(key)
  context.service.stores.challenges.forgetKey(key)
  context.service.stores.identities.forgetApp(app)
  context.service.stores.enrollments.forgetApp(app)
  context.service.stores.sessions.forgetApp(app)
  context.service.stores.configurations.forgetApp(app)
}
