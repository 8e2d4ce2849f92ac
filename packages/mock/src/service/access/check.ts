// POST /v1/entity/check `{message: "ping"}`: 200 `{message: "pong"}`. Not in the spec; the
// official clients call it to test their credentials, so it needs a valid signature and nothing else.
import { FieldValidator, parseJsonObject, sendJson } from '@service-auth/http'
import type { SignedHandler } from '../context.js'

export const check: SignedHandler = (_context, { req, res, body }) => {
  const fields = new FieldValidator(parseJsonObject(body, req.headers['content-type'], { allowEmpty: true }))
  fields.choice('message', ['ping'])
  fields.check()
  sendJson(res, 200, { message: 'pong' })
}
