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
  /**
   * The service's base URL: a token whose `iss` names another (a trailing `/` aside) is refused.
   * A token without `iss` is taken, since the spec names no such claim (the mock sets it).
   */
  issuer?: string
  /** The API key: a token whose `aud` does not name it is refused; one without `aud` is taken, as for `iss`. */
  audience?: string
  /** The time to check against, a valid Date (a TypeError otherwise); default now. */
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
 * missing or of the wrong type, or `exp` too far after `iat`), `audience` (`aud` names another
 * API key), `issuer` (`iss` names another service).
 */
export type AuthTokenProblem = 'malformed' | 'signature' | 'expired' | 'not-yet-valid' | 'claims' | 'audience' | 'issuer'

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

// How far after `iat` a token's `exp` may be: maxAge, but never less than the default, so that a
// stricter maxAge (say 30 s) still takes the service's own tokens (the mock's live 120 s). The
// spec bounds no sign-in token's life; the only lifetime it gives is its request tokens', "a few
// seconds after iat". A token that claims to be good for longer (a year, say) comes from a
// service bug or from whoever holds the secret, not from an honest sign-in.
const longestLife = (maxAge: number) => Math.max(maxAge, DEFAULT_MAX_AGE)

/**
 * Verifies the token the embed hands to your controller (spec section 4, steps 1 to 3): HS256
 * only, keyed with the Base64-decoded API secret, `exp`, `nbf` and `iat` checked with a small
 * leeway, no older than `maxAge` from `iat`, `exp` no further from `iat` than maxAge (300 s at
 * least), and `aud` and `iss`, where the token has them, naming `audience` and `issuer`. Throws
 * an AuthTokenError when the token cannot be trusted, and a TypeError for a bad option.
 * @example const { challengeId, identifier, otp } = await verifyAuthToken(req.headers['x-service-auth'], { secret })
 */
export async function verifyAuthToken(token: unknown, options: VerifyOptions): Promise<AuthTokenClaims> {
  // First, so a bad secret shows on the first request whatever it carries, not only on a good token.
  const { key, leeway, maxAge, audience, issuer, now: at } = verifyOptions(options)
  if (typeof token !== 'string' || !token) throw new AuthTokenError('malformed', 'There is no token.')
  if (token.length > MAX_TOKEN_LENGTH) throw new AuthTokenError('malformed', `The token is longer than ${MAX_TOKEN_LENGTH / 1024} KiB.`)
  // The wire's claims (one definition, shared with the mock), none of them checked yet.
  let payload: { [K in keyof AuthTokenPayload]?: unknown }
  try {
    ;({ payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      clockTolerance: leeway,
      currentDate: at,
      requiredClaims: ['jti', 'sub', 'otp', 'exp', 'iat'] satisfies (keyof AuthTokenPayload)[],
    }))
  } catch (error) {
    throw refusal(error)
  }
  const now = (at ?? new Date()).getTime() / 1000
  // jose has checked that iat and exp are there and are numbers; JSON's 1e400 is a number too, Infinity.
  const { iat, exp, nbf } = payload as { iat: number; exp: number; nbf?: number }
  if (![iat, exp, nbf ?? 0].every(Number.isFinite)) throw new AuthTokenError('claims', "The token's iat, exp or nbf is not a finite number.")
  // jose checks iat only against a maximum age; a token issued in the future is as suspect as one not yet valid.
  if (iat > now + leeway) throw new AuthTokenError('not-yet-valid', 'The token was issued in the future.')
  if (now - iat > maxAge + leeway) {
    throw new AuthTokenError('expired', `The token was issued ${Math.floor(now - iat)} s ago, longer than maxAge (${maxAge} s) allows.`)
  }
  if (exp - iat > longestLife(maxAge)) {
    throw new AuthTokenError('claims', `The token claims to be good for ${exp - iat} s from its iat; no more than ${longestLife(maxAge)} s is taken.`)
  }
  // Checked only where the token carries them (the spec names neither for this token), by hand:
  // jose's own checks would refuse a token without them.
  const { aud, iss } = payload
  if (audience !== undefined && aud !== undefined && aud !== audience && !(Array.isArray(aud) && aud.includes(audience))) {
    throw new AuthTokenError('audience', `The token is for the API key ${shown(aud)}, not ${shown(audience)}.`)
  }
  if (issuer !== undefined && iss !== undefined && !(typeof iss === 'string' && withoutSlash(iss) === withoutSlash(issuer))) {
    throw new AuthTokenError('issuer', `The token was issued by ${shown(iss)}, not by the service at ${shown(issuer)}.`)
  }
  const { jti, sub, otp, role, sid } = payload
  if (![jti, sub, otp].every((claim) => typeof claim === 'string' && claim)) {
    throw new AuthTokenError('claims', 'The token lacks a jti, sub or otp string.')
  }
  // Every string handed on must be whole Unicode: a lone surrogate makes encodeURIComponent (the
  // identifier goes into the authenticate URL), TextEncoder and most databases throw or mangle it.
  // (Read as text: what is not a string has no lone surrogate, and role and sid are then left out.)
  if ([jti, sub, otp, role, sid].some((claim) => LONE_SURROGATE.test(String(claim)))) {
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
export function verifyOptions(options: VerifyOptions) {
  return {
    key: secretBytes(options.secret),
    leeway: seconds('leeway', options.leeway ?? 5),
    maxAge: seconds('maxAge', options.maxAge ?? DEFAULT_MAX_AGE),
    audience: text('audience', options.audience),
    issuer: text('issuer', options.issuer),
    now: instant(options.now),
  }
}

/** The time to check against: absent (now), or a Date that is one; jose read any other as a malformed token. */
function instant(value: unknown): Date | undefined {
  if (value !== undefined && !(value instanceof Date && Number.isFinite(value.getTime()))) throw new TypeError('now must be a valid Date, or left out.')
  return value
}

// The options were checked before, so whatever jose throws is the token's fault.
function refusal(error: unknown): AuthTokenError {
  const cause = { cause: error }
  if (error instanceof errors.JWTExpired) return new AuthTokenError('expired', 'The token has expired.', cause)
  if (error instanceof errors.JWTClaimValidationFailed) {
    // Given these options, only nbf can fail its check (jose says `check_failed`); a claim of the
    // wrong type is `invalid`, a missing one `missing`.
    return error.reason === 'check_failed'
      ? new AuthTokenError('not-yet-valid', 'The token is not valid yet.', cause)
      : new AuthTokenError('claims', `The token's ${error.claim} claim is wrong: ${error.message}`, cause)
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new AuthTokenError('signature', 'The token is not signed with this secret.', cause)
  }
  return new AuthTokenError('malformed', 'The token is not an HS256 JWT.', cause)
}

/** An optional text from the options: absent, or a string that is not empty. */
function text(name: string, value: unknown): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || !value)) throw new TypeError(`${name} must be a string that is not empty, or left out.`)
  return value as string | undefined
}

// A claim's value in a message: JSON, so that no control character reaches a log, and short.
const shown = (value: unknown) => JSON.stringify(value).slice(0, 100)

const withoutSlash = (url: string) => url.replace(/\/+$/, '')

/** A number of seconds from the options: finite and not negative, or the integrator's bug. */
function seconds(name: string, value: unknown): number {
  if (!Number.isFinite(value) || (value as number) < 0) throw new TypeError(`${name} must be a number of seconds, 0 or more.`)
  return value as number
}
