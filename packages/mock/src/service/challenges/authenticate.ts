// POST /v1/entity/identities/{identifier}/authenticate `{challenge, otp}` (spec section 4): the
// integrator's controller confirms a signed challenge, which consumes it. 200 once, with the
// Identity's fields and `session` at the top level (the official clients parse the answer as an
// Identity, and read `session`); every other attempt is 401, and a locked identity 423.
import { FieldValidator, HttpProblem, parseJsonObject, sendJson } from '@service-auth/http'
import type { Challenge } from './challenge-store.js'
import type { ServiceContext, SignedExchange, SignedHandler } from '../context.js'
import type { Identity } from '../identities/identity-store.js'
import { identityNamedInPath } from '../identities/identity-fields.js'
import { identityJson, sessionJson } from '../identities/identity-json.js'
import { unauthorized } from '../access/request-auth.js'
import { sameSecret } from '../access/same-secret.js'
import { describeBrowser } from '../sessions/session-client.js'
import type { Session } from '../sessions/session-store.js'

function readAuthenticateInput({ req, body }: SignedExchange): { challengeId: string; otp: string } {
  const fields = new FieldValidator(parseJsonObject(body, req.headers['content-type']))
  const challengeId = fields.requiredString('challenge', { maxLength: 100 })
  const otp = fields.requiredString('otp', { maxLength: 200 })
  fields.check()
  return { challengeId: challengeId!, otp: otp! }
}

/**
 * Everything from the lookup to the consumption runs without an await, so of two concurrent
 * confirmations of one challenge exactly one sees it signed: the second gets 401.
 */
export const authenticate: SignedHandler = (context, exchange) => {
  const { challengeId, otp } = readAuthenticateInput(exchange)
  const { app } = exchange.key
  const identity = identityNamedInPath(context, exchange)
  const challenge = context.stores.challenges.get(challengeId)
  // Another app's challenge is as unknown as a missing one: apps do not see each other's.
  const refusal = whyNotConfirmable(challenge?.app === app ? challenge : undefined, identity, otp)
  if (refusal) throw unauthorized(refusal)
  if (identity!.locked) throw new HttpProblem(423, 'This identity is locked.')
  context.stores.challenges.consume(challenge!)
  const session = startSession(context, challenge!, identity!)
  sendJson(exchange.res, 200, { ...identityJson(identity!, context.stores.sessions), session: session ? sessionJson(session, identity) : null })
}

/** The session the token named in `sid`, if the app had sessions on when the phone signed. */
function startSession(context: ServiceContext, challenge: Challenge, identity: Identity): Session | undefined {
  const { sessionId, deviceId } = challenge.signer!
  if (!sessionId) return undefined
  // whyNotConfirmable made sure the device that signed is still the identity's.
  const device = identity.devices.find((candidate) => candidate.id === deviceId)!
  return context.stores.sessions.start({ id: sessionId, app: challenge.app, identityId: identity.id, device, client: describeBrowser(challenge.browser) })
}

/** Why the confirmation is refused, or undefined when it may go ahead. */
function whyNotConfirmable(challenge: Challenge | undefined, identity: Identity | undefined, otp: string): string | undefined {
  if (!challenge) return 'There is no such challenge.'
  switch (challenge.state) {
    case 'pending':
      return 'The challenge has not been signed.'
    case 'expired':
      return 'The challenge has expired.'
    case 'consumed':
      return 'The challenge has been used already.'
  }
  if (!identity) return 'There is no identity with this identifier; it may have been deleted.'
  if (challenge.signer?.identityId !== identity.id) return 'The challenge was not signed by this identity.'
  if (!identity.devices.some((device) => device.id === challenge.signer!.deviceId)) {
    return 'The device that signed the challenge has been removed from the identity.'
  }
  if (!sameSecret(otp, challenge.signer.otp)) return 'The otp is wrong.'
  return undefined
}
