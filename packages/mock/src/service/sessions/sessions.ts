// /v1/entity/sessions: the sign-in sessions of the key's app (see session-store.ts). Not in the
// spec; the official clients list them, read one, report their own session times, and log out.
import { ErrorCode, FieldValidator, fieldProblem, HttpProblem, type FieldErrors, isJsonObject, parseJsonArray, sendEmpty, sendJson } from '@service-auth/http'
import type { ServiceContext, SignedExchange, SignedHandler } from '../context.js'
import { sessionJson } from '../identities/identity-json.js'
import type { Session } from './session-store.js'

// One PATCH reports at most this many sessions; the body limit would stop far more anyway.
const MAX_UPDATES = 500

/** GET /v1/entity/sessions: 200 `{items}`, the app's live sessions, oldest first. */
export const listSessions: SignedHandler = (context, { key, res }) => {
  sendJson(res, 200, sessionsJson(context, context.stores.sessions.list(key.app)))
}

/** GET /v1/entity/sessions/{id}: 200 Session; 404 for none, an ended or another app's. */
export const retrieveSession: SignedHandler = (context, exchange) => {
  sendJson(exchange.res, 200, describe(context, sessionInPath(context, exchange)))
}

/** DELETE /v1/entity/sessions/{id}: logs the session out, 204; 404 as retrieve. */
export const logoutSession: SignedHandler = (context, exchange) => {
  context.stores.sessions.end(sessionInPath(context, exchange))
  sendEmpty(exchange.res, 204)
}

/**
 * PATCH /v1/entity/sessions `[{id, clientSessionUpdatedAt?, clientSessionExpiresAt?}]`: the app
 * reports when each of its sessions was last used and when it expires (an expiry in the past
 * ends it), and gets back `{items}` as GET answers it. Ids the service no longer knows are
 * skipped, not refused: their absence from `items` tells the app those sessions are over.
 */
export const updateSessions: SignedHandler = (context, exchange) => {
  const updates = readSessionUpdates(exchange)
  for (const { id, updatedAt, expiresAt } of updates) {
    const session = context.stores.sessions.get(exchange.key.app, id)
    if (session) context.stores.sessions.update(session, { updatedAt, expiresAt })
  }
  sendJson(exchange.res, 200, sessionsJson(context, context.stores.sessions.list(exchange.key.app)))
}

interface SessionUpdate {
  id: string
  updatedAt: Date | undefined
  expiresAt: Date | undefined
}

/** The whole list checked before anything changes; errors are named `[index][field]`, as Symfony names them. */
function readSessionUpdates({ req, body }: SignedExchange): SessionUpdate[] {
  // PHP's client sends an empty body for an empty list.
  const list = body.trim() === '' ? [] : parseJsonArray(body, req.headers['content-type'])
  if (list.length > MAX_UPDATES) throw fieldProblem('body', 'tooLong', `The list should have ${MAX_UPDATES} sessions or fewer.`)
  const errors: FieldErrors = Object.create(null)
  const updates = list.map((entry, index): SessionUpdate => {
    if (!isJsonObject(entry)) {
      errors[`[${index}]`] = [{ code: ErrorCode.invalidType, message: 'This value should be of type object.' }]
      return { id: '', updatedAt: undefined, expiresAt: undefined }
    }
    const fields = new FieldValidator(entry)
    const id = fields.requiredString('id', { maxLength: 100 })
    // null is "no news" for a time: PHP sends the times it read, which may be null.
    const time = (field: string) => (entry[field] === null ? undefined : fields.timestamp(field))
    const update = { id: id ?? '', updatedAt: time('clientSessionUpdatedAt'), expiresAt: time('clientSessionExpiresAt') }
    for (const [field, fieldErrors] of Object.entries(fields.errors)) errors[`[${index}][${field}]`] = fieldErrors
    return update
  })
  if (Object.keys(errors).length > 0) throw new HttpProblem(400, 'The submitted data is invalid.', errors)
  return updates
}

function sessionInPath(context: ServiceContext, { key, params }: SignedExchange): Session {
  const session = context.stores.sessions.get(key.app, params[0] ?? '')
  if (!session) throw new HttpProblem(404, 'There is no session with this id; it may have ended.')
  return session
}

const describe = (context: ServiceContext, session: Session) => sessionJson(session, context.stores.identities.getById(session.identityId))

const sessionsJson = (context: ServiceContext, sessions: Session[]) => ({ items: sessions.map((session) => describe(context, session)) })
