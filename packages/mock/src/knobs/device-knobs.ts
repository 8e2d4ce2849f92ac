// The phone app's side of enrollment, simulated: a device scans an enrollment QR code and
// redeems the token, which provisions it for the identity (fills Identity.tokens).
import { HttpProblem, sendEmpty, sendJson } from '@service-auth/http'
import type { KnobHandler, KnobContext } from './knob-context.js'
import { enrollmentIdFrom, type Enrollment } from '../service/enrollments/enrollment-store.js'
import { deviceJson, identityJson } from '../service/identities/identity-json.js'
import { fieldsOf, knobFields } from './knob-fields.js'
import type { DeviceKnob, ListedEnrollment, ProvisionedDevice } from './knob-wire.js'
import { toTimestamp } from '../service/timestamps.js'

const DEFAULT_MODEL = 'Mock phone'

/**
 * POST /__knobs/devices `{token, model?, label?}`: `token` is what the QR code says (or the bare
 * enrollment id). 201 `{device, identity}`; 404 unknown token; 410 expired or used token, or an
 * identity deleted since.
 */
export const provisionDevice: KnobHandler = (context, exchange) => {
  const fields = knobFields(exchange, fieldsOf<DeviceKnob>({ token: true, model: true, label: true }))
  const token = fields.requiredString('token', { maxLength: 200, printable: true })
  const model = fields.string('model', { maxLength: 100, printable: true }) ?? DEFAULT_MODEL
  const label = fields.string('label', { maxLength: 100, printable: true }) ?? ''
  fields.check()
  const enrollment = enrollmentFor(context, enrollmentIdFrom(token!))
  const state = context.service.stores.enrollments.stateOf(enrollment)
  if (state !== 'pending') throw new HttpProblem(410, `The enrollment token is ${state}.`)
  const identity = context.service.stores.identities.getById(enrollment.identityId)
  if (!identity) throw new HttpProblem(410, 'The identity of this enrollment token has been deleted.')
  const device = context.service.stores.identities.addDevice(identity, { model, label })
  context.service.stores.enrollments.redeem(enrollment)
  const provisioned: ProvisionedDevice = { device: deviceJson(device), identity: identityJson(identity, context.service.stores.sessions) }
  sendJson(exchange.res, 201, provisioned)
}

export const listEnrollments: KnobHandler = (context, { res }) => {
  const listed: ListedEnrollment[] = context.service.stores.enrollments.list().map((enrollment) => ({
    id: enrollment.id,
    state: context.service.stores.enrollments.stateOf(enrollment),
    app: enrollment.app,
    identifier: context.service.stores.identities.getById(enrollment.identityId)?.identifier ?? null,
    createdAt: toTimestamp(enrollment.createdAt),
    expiresAt: toTimestamp(enrollment.expiresAt),
  }))
  sendJson(res, 200, listed)
}

/** POST /__knobs/enrollments/{id}/expire: 204; redeeming it is then a 410. */
export const expireEnrollment: KnobHandler = (context, exchange) => {
  knobFields(exchange, []).check()
  context.service.stores.enrollments.expire(enrollmentFor(context, exchange.params[0] ?? ''))
  sendEmpty(exchange.res, 204)
}

function enrollmentFor(context: KnobContext, id: string): Enrollment {
  const enrollment = context.service.stores.enrollments.get(id)
  if (!enrollment) throw new HttpProblem(404, 'There is no enrollment token with this id.')
  return enrollment
}
