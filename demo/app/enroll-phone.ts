// POST /__app/enroll `{identifier, allowed?}`: what an integrator's "add your phone" page does on
// its server: enroll the identity at the service (a signed request, through the service-auth/server
// client), make it a user of this site (`allowed: false` makes one the controller refuses), and
// hand back the Enrollment with its QR code. The login page's phone panel and the end-to-end
// tests use it, then redeem the code as the phone app would. A real site would ask who is signed
// in instead of taking any identifier.
import { FieldValidator } from '../common/field-validator.ts'
import { HttpProblem } from '../common/problem.ts'
import { parseJsonObject, readBody } from '../common/read-body.ts'
import { sendJson } from '../common/respond.ts'
import { ServiceError } from '../../src/server/index.ts'
import type { AppHandler } from './context.ts'

export const enrollPhone: AppHandler = async (context, { req, res }) => {
  const fields = new FieldValidator(parseJsonObject(await readBody(req), req.headers['content-type']))
  fields.onlyKnown(['identifier', 'allowed'])
  const identifier = fields.requiredString('identifier', { maxLength: 255, printable: true })
  const allowed = fields.boolean('allowed') ?? true
  fields.check()
  try {
    const { enrollment, created } = await context.serviceClient.enroll({ identifier: identifier! })
    context.users.add(identifier!, { allowed })
    sendJson(res, created ? 201 : 200, enrollment)
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error
    // The service's refusal is not this app's fault, nor a reason for the phone to retry blindly.
    throw new HttpProblem(502, `The service did not enroll ${identifier}: ${error.message}`)
  }
}
