// What the phone app does once its owner approves a code: it signs the challenge as one of the
// identity's devices. The sign knob and the test key `test-signs` both sign this way.
import { randomBytes, randomUUID } from 'node:crypto'
import { signAuthToken } from './auth-token.js'
import type { Challenge } from './challenge-store.js'
import type { ServiceContext } from '../context.js'
import type { Device, Identity } from '../identities/identity-store.js'

/**
 * Signs a pending challenge as `device` of `identity`; a challenge that is no longer pending is
 * left as it is (the caller looks at its state afterwards).
 */
export async function signChallenge(context: ServiceContext, challenge: Challenge, identity: Identity, device: Device): Promise<void> {
  if (challenge.state !== 'pending') return
  const otp = randomBytes(16).toString('base64url')
  // The session's id is chosen now, because the token names it; authenticate starts it.
  const sessionId = context.stores.configurations.get(challenge.app).sessionsEnabled ? randomUUID() : undefined
  const secret = context.access.keys.get(challenge.key)!.secret
  const token = await signAuthToken(
    {
      challengeId: challenge.id,
      identifier: identity.identifier,
      otp,
      role: identity.role,
      sessionId,
      issuer: context.addresses.publicUrl,
      audience: challenge.key,
    },
    secret,
  )
  // Signing is asynchronous: only the first of two racing sign requests wins, and expiry may come between.
  if (challenge.state === 'pending' && context.stores.challenges.get(challenge.id) === challenge) {
    context.stores.challenges.sign(challenge, token, { identityId: identity.id, deviceId: device.id, identifier: identity.identifier, otp, sessionId })
  }
}
