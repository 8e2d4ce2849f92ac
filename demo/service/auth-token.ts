// The authentication token the service hands out once a challenge is signed (spec section 2,
// "Authentication token"): what the browser passes on to the integrator's controller.
import { randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'

// Long enough for the browser to reach the controller, short enough that a leaked token is soon worthless.
const TOKEN_LIFETIME_SECONDS = 120

export interface AuthTokenClaims {
  challengeId: string
  identifier: string
  /** The service's base URL, as `iss`. */
  issuer: string
}

/** HS256 over the decoded API secret, so the integrator verifies it with the secret it already has. */
export function signAuthToken({ challengeId, identifier, issuer }: AuthTokenClaims, secret: Uint8Array): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000)
  return new SignJWT({ otp: randomBytes(16).toString('base64url') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(challengeId)
    .setSubject(identifier)
    .setIssuer(issuer)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS)
    .sign(secret)
}
