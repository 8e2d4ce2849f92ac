import { errors, jwtVerify } from 'jose'
import type { AuthTokenPayload } from '../wire/auth-token.js'
import { secretBytes } from './secret.js'

export interface VerifyOptions {
  /** The API secret, as the Base64 text the service issued (at least 32 bytes decoded; a TypeError otherwise). */
  secret: string
  /** Seconds of clock skew forgiven on `exp`, `nbf` and `iat`; default 5. */
  leeway?: number
  /** Seconds since `iat` after which a token is too old, whatever its `exp` says; default 300. */
  maxAge?: number
  /** Pins the token's `iss` (the service's URL), if you want to. */
  issuer?: string
  /** The time to check against; default now. */
  now?: Date
}

/** What a signed token says: which challenge, who signed it, and the one-time password. */
export interface AuthTokenClaims {
  /** `jti`: the challenge id, to confirm with `authenticate`. */
  challengeId: string
  /** `sub`: the identity's identifier, e.g. an e-mail address. */
  identifier: string
  /** `otp`: the one-time password, to confirm with `authenticate`. */
  otp: string
  /** `role`: the identity's role at the service, e.g. `ROLE_USER`, when the token names one. */
  role?: string
  /** `sid`: the sign-in session `authenticate` will start, when your app has sessions on. */
  sessionId?: string
}

/**
 * Why a token was refused: `malformed` (not a JWT, or not HS256), `signature` (not signed with
 * your secret), `expired`, `not-yet-valid` (`nbf` or `iat` ahead of now), `claims` (a claim is
 * missing or of the wrong type).
 */
export type AuthTokenProblem = 'malformed' | 'signature' | 'expired' | 'not-yet-valid' | 'claims'

/** The token in `X-Service-Auth` cannot be trusted; `problem` says why. */
export class AuthTokenError extends Error {
  override name = 'AuthTokenError'
  constructor(
    readonly problem: AuthTokenProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

// A real token is a few hundred characters. Anything far longer is refused before it is decoded
// or hashed, so a flood of huge headers costs no crypto.
const MAX_TOKEN_LENGTH = 8 * 1024

// A lone surrogate: in a `u` regex, a valid pair is one astral code point, so only halves match.
// (String.prototype.isWellFormed says the same from Node 20 on, but not in every runtime this supports.)
const LONE_SURROGATE = /\p{Cs}/u

// The embed hands the token on as soon as the phone has signed, so an honest token is seconds old
// (the mock service's live 120 s). Five minutes leaves room for a slow network and a skewed clock,
// and bounds how long a token leaked from a log or a proxy is worth anything, whatever `exp` a
// service bug or a long-lived token claims; that the challenge is single-use does the rest.
const DEFAULT_MAX_AGE = 300

/**
 * Verifies the token the embed hands to your controller (spec section 4, steps 1 to 3): HS256
 * only, keyed with the Base64-decoded API secret, `exp`, `nbf` and `iat` checked with a small
 * leeway, and no older than `maxAge` from `iat`. Throws an AuthTokenError when the token cannot
 * be trusted, and a TypeError for a bad secret, leeway or maxAge.
 * @example const { challengeId, identifier, otp } = await verifyAuthToken(req.headers['x-service-auth'], { secret })
 */
export async function verifyAuthToken(token: unknown, options: VerifyOptions): Promise<AuthTokenClaims> {
  // First, so a bad secret shows on the first request whatever it carries, not only on a good token.
  const { key, leeway, maxAge } = verifyOptions(options)
  if (typeof token !== 'string' || !token) throw new AuthTokenError('malformed', 'There is no token.')
  if (token.length > MAX_TOKEN_LENGTH) throw new AuthTokenError('malformed', `The token is longer than ${MAX_TOKEN_LENGTH / 1024} KiB.`)
  // The wire's claims (one definition, shared with the mock), none of them checked yet.
  let payload: { [K in keyof AuthTokenPayload]?: unknown }
  try {
    ;({ payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      clockTolerance: leeway,
      issuer: options.issuer,
      currentDate: options.now,
      requiredClaims: ['jti', 'sub', 'otp', 'exp', 'iat'] satisfies (keyof AuthTokenPayload)[],
    }))
  } catch (error) {
    throw refusal(error)
  }
  const now = (options.now ?? new Date()).getTime() / 1000
  // jose has checked that iat and exp are there and are numbers; JSON's 1e400 is a number too, Infinity.
  const { iat, exp, nbf } = payload as { iat: number; exp: number; nbf?: number }
  if (![iat, exp, nbf ?? 0].every(Number.isFinite)) throw new AuthTokenError('claims', "The token's iat, exp or nbf is not a finite number.")
  // jose checks iat only against a maximum age; a token issued in the future is as suspect as one not yet valid.
  if (iat > now + leeway) throw new AuthTokenError('not-yet-valid', 'The token was issued in the future.')
  if (now - iat > maxAge + leeway) {
    throw new AuthTokenError('expired', `The token was issued ${Math.floor(now - iat)} s ago, longer than maxAge (${maxAge} s) allows.`)
  }
  const { jti, sub, otp, role, sid } = payload
  if (![jti, sub, otp].every((claim) => typeof claim === 'string' && claim)) {
    throw new AuthTokenError('claims', 'The token lacks a jti, sub or otp string.')
  }
  // Every string handed on must be whole Unicode: a lone surrogate makes encodeURIComponent (the
  // identifier goes into the authenticate URL), TextEncoder and most databases throw or mangle it.
  if ([jti, sub, otp, role, sid].some((claim) => typeof claim === 'string' && LONE_SURROGATE.test(claim))) {
    throw new AuthTokenError('claims', "The token's jti, sub, otp, role or sid is not well-formed Unicode.")
  }
  const claims: AuthTokenClaims = { challengeId: jti as string, identifier: sub as string, otp: otp as string }
  // Optional, so only strings are taken: a token without them is as good as before.
  if (typeof role === 'string' && role) claims.role = role
  if (typeof sid === 'string' && sid) claims.sessionId = sid
  return claims
}

/**
 * The options checked, the secret decoded: a TypeError for a bad one, which is the integrator's
 * bug rather than a bad token. The controller calls this before it reads anything of the request.
 */
export function verifyOptions(options: VerifyOptions): { key: Uint8Array; leeway: number; maxAge: number } {
  return {
    key: secretBytes(options.secret),
    leeway: seconds('leeway', options.leeway ?? 5),
    maxAge: seconds('maxAge', options.maxAge ?? DEFAULT_MAX_AGE),
  }
}

function refusal(error: unknown): AuthTokenError {
  if (error instanceof TypeError) throw error // a bad option is the integrator's bug, not a bad token
  const cause = { cause: error }
  if (error instanceof errors.JWTExpired) return new AuthTokenError('expired', 'The token has expired.', cause)
  if (error instanceof errors.JWTClaimValidationFailed) {
    return error.claim === 'nbf'
      ? new AuthTokenError('not-yet-valid', 'The token is not valid yet.', cause)
      : new AuthTokenError('claims', `The token's ${error.claim} claim is wrong: ${error.message}`, cause)
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new AuthTokenError('signature', 'The token is not signed with this secret.', cause)
  }
  return new AuthTokenError('malformed', 'The token is not an HS256 JWT.', cause)
}

/** A number of seconds from the options: finite and not negative, or the integrator's bug. */
function seconds(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be a number of seconds, 0 or more.`)
  return value
}
