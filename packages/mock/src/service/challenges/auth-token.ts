// The authentication token the service hands out once a challenge is signed (spec section 2,
// "Authentication token"): what the browser passes on to the integrator's controller.
import { SignJWT } from 'jose'
import type { AuthTokenPayload } from 'service-auth'

// Long enough for the browser to reach the controller, short enough that a leaked token is soon worthless.
const TOKEN_LIFETIME_SECONDS = 120

export interface AuthTokenClaims {
  challengeId: string
  identifier: string
  /** The one-time password the integrator confirms with authenticate. */
  otp: string
  /** The identity's role, which integrations read off the token. */
  role: string
  /** The sign-in session a confirmation starts, when the app has sessions on. */
  sessionId: string | undefined
  /** The service's public base URL, as `iss`: clients build the authenticate URL from it. */
  issuer: string
  /** The API key, as `aud`: the token is for that key's integrator, and clients check it. */
  audience: string
}

/**
 * What the phone app hands back once it signed: HS256 over the decoded secret of the key that
 * created the challenge, so the integrator verifies it with the secret it already has.
 */
export function signAuthToken(claims: AuthTokenClaims, secret: Uint8Array): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000)
  // The claims SignJWT's setters do not write; their names and types are the wire's (one definition).
  const payload: Partial<AuthTokenPayload> = { otp: claims.otp, role: claims.role, ...(claims.sessionId && { sid: claims.sessionId }) }
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(claims.challengeId)
    .setSubject(claims.identifier)
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS)
    .sign(secret)
}
