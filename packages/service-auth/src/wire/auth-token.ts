// The authentication token on the wire (spec section 2, "Authentication token"), defined once:
// the mock signs it, service-auth/server verifies it, and the tests forge it, all from this type.
// Types only, so the browser bundle pays nothing (it never reads the token: it hands it on).

/** The claims of the token the service hands out once a challenge is signed: an HS256 JWT's payload. */
export interface AuthTokenPayload {
  /** The challenge's id, to confirm with `authenticate`. */
  jti: string
  /** The identity's identifier, e.g. an e-mail address. */
  sub: string
  /** The one-time password, to confirm with `authenticate`. */
  otp: string
  /** The identity's role at the service, e.g. `ROLE_USER`. */
  role?: string
  /** The sign-in session `authenticate` will start, when the app has sessions on. */
  sid?: string
  /** The service's public base URL, from which a client builds the authenticate URL. */
  iss?: string
  /** The API key of the challenge: the integrator the token is for. */
  aud?: string
  /** Seconds since the epoch. */
  iat: number
  exp: number
  nbf?: number
}
