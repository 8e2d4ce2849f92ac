// The authentication token the service hands out once a challenge is signed (spec section 2,
// "Authentication token"): what the browser passes on to the integrator's controller.
import { SignJWT } from 'jose'

// Long enough for the browser to reach the controller, short enough that a leaked token is soon worthless.
const TOKEN_LIFETIME_SECONDS = 120

export interface AuthTokenClaims {
  challengeId: string
  identifier: string
  /** The one-time password the integrator confirms with authenticate. */
  otp: string
  /** The service's base URL, as `iss`. */
  issuer: string
}

/**
 * What the phone app hands back once it signed: HS256 over the decoded secret of the key that
 * created the challenge, so the integrator verifies it with the secret it already has.
 */
export function signAuthToken({ challengeId, identifier, otp, issuer }: AuthTokenClaims, secret: Uint8Array): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000)
  return new SignJWT({ otp })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(challengeId)
    .setSubject(identifier)
    .setIssuer(issuer)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS)
    .sign(secret)
}
