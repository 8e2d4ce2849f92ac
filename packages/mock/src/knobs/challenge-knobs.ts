// The challenge knobs: what the phone app does (sign), what time does (expire), what a
// confirmation does (consume), and a challenge whose status polls fail on demand. Each takes a
// `key`: then only that API key's challenges are listed or acted on, so a test sharing the mock
// with others never touches theirs.
import { HttpProblem, sendEmpty, sendJson } from '@service-auth/http'
import { signChallenge } from '../service/challenges/sign-challenge.js'
import type { Exchange } from '../service/context.js'
import type { KnobHandler, KnobContext } from './knob-context.js'
import type { Device, Identity } from '../service/identities/identity-store.js'
import { challengeFor, conflict, fieldsOf, keyField, keyParam, knobFields, readFailFields } from './knob-fields.js'
import type { ChallengeFailKnob, KeyScope, ListedChallenge, SignedChallenge, SignKnob } from './knob-wire.js'
import { toTimestamp } from '../service/timestamps.js'

export const listChallenges: KnobHandler = (context, { res, url }) => {
  const key = keyParam(context, url)
  const listed: ListedChallenge[] = context.service.stores.challenges
    .list()
    .filter((challenge) => key === undefined || challenge.key === key)
    .map((challenge) => ({
      id: challenge.id,
      state: challenge.state,
      createdAt: toTimestamp(challenge.createdAt),
      expiresAt: toTimestamp(challenge.expiresAt),
      polls: challenge.polls,
      app: challenge.app,
      key: challenge.key,
      identifier: challenge.signer?.identifier ?? null,
    }))
  sendJson(res, 200, listed)
}

/**
 * POST /__knobs/challenges/{id}/sign `{identifier?, deviceId?, key?}`: signs as a provisioned device of
 * the identity, as the phone app does; nothing else may sign. Signing a signed challenge again
 * returns its token.
 */
export const sign: KnobHandler = async (context, exchange) => {
  const fields = knobFields(exchange, fieldsOf<SignKnob>({ identifier: true, deviceId: true, key: true }))
  const identifier = fields.string('identifier', { maxLength: 255, printable: true })
  const deviceId = fields.string('deviceId', { maxLength: 100, printable: true })
  const key = keyField(fields, context)
  if (identifier === undefined && deviceId === undefined && Object.keys(fields.errors).length === 0) {
    fields.add('identifier', 'isBlank', 'Name the identity (identifier) or its device (deviceId).')
  }
  fields.check()
  const challenge = challengeFor(context, exchange.params[0], key)
  const { identity, device } = signingDevice(context, challenge.app, identifier, deviceId)
  await signChallenge(context.service, challenge, identity, device)
  if (challenge.state !== 'signed') throw conflict(challenge)
  const signed: SignedChallenge = { token: challenge.token! }
  sendJson(exchange.res, 200, signed)
}

/** The device that signs: the one named, or the identity's newest; 403 when the identity has none. */
function signingDevice(context: KnobContext, app: string, identifier?: string, deviceId?: string): { identity: Identity; device: Device } {
  if (deviceId !== undefined) {
    const found = context.service.stores.identities.findDevice(app, deviceId)
    if (!found) throw new HttpProblem(404, "There is no device with this id in the challenge's app.")
    if (identifier !== undefined && found.identity.identifier !== identifier) {
      throw new HttpProblem(403, 'This device belongs to another identity.')
    }
    return found
  }
  const identity = context.service.stores.identities.get(app, identifier!)
  if (!identity) throw new HttpProblem(404, "There is no identity with this identifier in the challenge's app; enroll it first.")
  const device = identity.devices.at(-1)
  if (!device) {
    throw new HttpProblem(403, 'Only a provisioned device of the identity may sign: redeem an enrollment with POST /__knobs/devices first.')
  }
  return { identity, device }
}

export const expire: KnobHandler = (context, exchange) => {
  const challenge = challengeFor(context, exchange.params[0], onlyKeyField(context, exchange))
  if (challenge.state === 'consumed') throw conflict(challenge)
  context.service.stores.challenges.expire(challenge.id)
  sendEmpty(exchange.res, 204)
}

/** What a successful authenticate call does to the challenge. */
export const consume: KnobHandler = (context, exchange) => {
  const challenge = challengeFor(context, exchange.params[0], onlyKeyField(context, exchange))
  if (challenge.state === 'expired') throw conflict(challenge)
  if (challenge.state !== 'consumed') context.service.stores.challenges.consume(challenge)
  sendEmpty(exchange.res, 204)
}

/** POST /__knobs/challenges/{id}/fail: the next status polls of this challenge only fail (default 500 once). */
export const failChallenge: KnobHandler = (context, exchange) => {
  const fields = knobFields(
    exchange,
    fieldsOf<ChallengeFailKnob>({ status: true, count: true, retryAfter: true, body: true, contentType: true, location: true, network: true, key: true }),
  )
  const rule = readFailFields(fields, { statusRequired: false })
  const key = keyField(fields, context)
  fields.check()
  const challenge = challengeFor(context, exchange.params[0], key)
  context.faults.failRules.add({ ...rule, status: rule.status ?? 500, match: 'status', challengeId: challenge.id })
  sendEmpty(exchange.res, 204)
}

/** The body of a knob whose only field is `key`. */
function onlyKeyField(context: KnobContext, exchange: Exchange): string | undefined {
  const fields = knobFields(exchange, fieldsOf<KeyScope>({ key: true }))
  const key = keyField(fields, context)
  fields.check()
  return key
}
