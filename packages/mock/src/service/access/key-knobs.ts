// POST /__knobs/keys: a fresh API key of its own app, for one test. Tests that share one mock
// (started once for a whole suite) each take a key, and name it to the knobs: the failures,
// delays, holds and signings they ask for then touch only their own requests and challenges,
// and their identities are their own app's. Such keys last until the service stops; a reset
// keeps them, as it keeps the keys the service started with.
import { generateCredentials } from '../../common/credentials.js'
import { sendJson } from '@service-auth/http'
import type { Handler } from '../context.js'
import { knobFields } from '../knobs/knob-fields.js'
import type { IssuedKey } from '../knobs/knob-wire.js'

export const createKey: Handler = (context, exchange) => {
  knobFields(exchange, []).check()
  const { apiKey, apiSecret } = generateCredentials()
  // Any origin, every permission: a test's page may be served from anywhere, and its controller does everything a controller does.
  const { key, app } = context.keys.add({ key: apiKey, secret: apiSecret, allowedOrigins: [] })
  const issued: IssuedKey = { key, secret: apiSecret, app }
  sendJson(exchange.res, 201, issued)
}
