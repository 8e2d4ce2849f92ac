// POST /__app/enroll `{identifier, allowed?}`: what an integrator's "add your phone" endpoint does
// on its server: enroll the identity at the service (a signed request, through the
// service-auth/server client) and hand back the Enrollment with its QR code, but only to someone
// entitled to add a phone (phone-enrolment.ts): for a new identity (201, and it becomes a user of
// this site; `allowed: false` makes one the controller refuses), or to the person signed in as
// it (200). Anyone else naming an existing identity gets no code: it goes to the identity's
// e-mail address (202 `{sentTo}`), or, with no address, nowhere (403). The login page's phone
// panel and the end-to-end tests use it, then redeem the code as the phone app would.
import { FieldValidator, HttpProblem, parseJsonObject, readBody, sendJson } from '@service-auth/http'
import type { AppHandler } from './context.js'
import { enrolPhone } from './phone-enrolment.js'

export const enrollPhone: AppHandler = async (context, { req, res }) => {
  const fields = new FieldValidator(parseJsonObject(await readBody(req), req.headers['content-type']))
  fields.onlyKnown(['identifier', 'allowed'])
  const identifier = fields.requiredString('identifier', { maxLength: 255, printable: true })
  const allowed = fields.boolean('allowed') ?? true
  fields.check()
  const signedInAs = context.sessions.subjectOf(req.headers.cookie)
  const outcome = await enrolPhone(context, identifier!, { signedInAs, emailShown: false, allowed })
  if ('shown' in outcome) return sendJson(res, outcome.created ? 201 : 200, outcome.shown)
  if ('emailedTo' in outcome) return sendJson(res, 202, { sentTo: outcome.emailedTo })
  throw new HttpProblem(403, outcome.refused)
}
