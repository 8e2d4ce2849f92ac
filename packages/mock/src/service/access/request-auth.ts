// Request authentication (spec section 5), in one place: every server-side request carries an
// HS256 JWT in Authorization that names its key (iss), the service (aud), a short validity, and
// the exact request it signs (method, url, bodyHash over the raw body bytes). Any doubt is a 401.
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose'
import { HttpProblem, withOneLeadingSlash } from '@service-auth/http'
import type { SignedRequestPayload } from 'service-auth'
import type { ApiKey, KeyRing } from './api-keys.js'

/** Seconds of clock skew forgiven on iat, nbf and exp. */
export const LEEWAY_SECONDS = 5
/**
 * The oldest iat accepted, and the longest lifetime (exp - iat) a token may claim. The spec's
 * tokens live about 10 s; this leaves room for a skewed clock and a slow proxy, and bounds how
 * long a token read off the wire can be replayed: there is no replay cache, because the claims
 * carry no nonce and two identical requests in one second carry identical tokens.
 */
export const MAX_TOKEN_AGE_SECONDS = 60
/** A real token is a few hundred characters; anything far longer is not worth parsing. */
export const MAX_TOKEN_LENGTH = 4096

// Every claim of the wire's signed request (one definition, shared with service-auth/server).
const REQUIRED_CLAIMS = ['iss', 'aud', 'iat', 'nbf', 'exp', 'method', 'url', 'bodyHash'] satisfies (keyof SignedRequestPayload)[]
// Three base64url parts: compact JWS. JWE (five parts) and JSON serialisation are not accepted.
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

export const unauthorized = (detail: string) => new HttpProblem(401, detail, undefined, { 'WWW-Authenticate': 'Bearer' })

export interface SignedRequest {
  req: IncomingMessage
  rawBody: Buffer
  /** The base URL this service answers as, without trailing slash: what aud and url must name. */
  baseUrl: string
}

/** The key that signed the request; throws a 401 problem when the request is not signed right. */
export async function authenticateRequest({ req, rawBody, baseUrl }: SignedRequest, keys: KeyRing): Promise<ApiKey> {
  const token = tokenFrom(req.headers.authorization)
  const key = keys.get(unverifiedIssuer(token))
  if (!key) throw unauthorized("The token's iss names no API key this service knows.")
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(token, key.secret, {
      algorithms: ['HS256'],
      issuer: key.key,
      audience: [baseUrl, baseUrl + '/'],
      clockTolerance: LEEWAY_SECONDS,
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      requiredClaims: REQUIRED_CLAIMS,
    }))
  } catch (error) {
    throw unauthorized(refusalOf(error))
  }
  checkLifetime(payload)
  checkRequestClaims(payload, req, rawBody, baseUrl)
  return key
}

/** The token, bare or after a `Bearer ` scheme (the spec shows none; clients send both). */
function tokenFrom(header: string | undefined): string {
  if (!header) throw unauthorized('The Authorization header with the signed token is missing.')
  const token = header.trim().replace(/^Bearer\s+/i, '')
  if (token.length > MAX_TOKEN_LENGTH) throw unauthorized(`The token is longer than ${MAX_TOKEN_LENGTH} characters.`)
  if (!COMPACT_JWS.test(token)) throw unauthorized('The Authorization header does not hold a signed JWT.')
  return token
}

/** `iss` read before verifying, only to pick the secret to verify with. */
function unverifiedIssuer(token: string): unknown {
  try {
    return decodeJwt(token).iss
  } catch {
    throw unauthorized('The token is not a JWT.')
  }
}

/**
 * A token that claims to live longer than the oldest iat accepted is refused outright, whatever
 * its age: a client that signs with a far exp would otherwise work for a minute and then fail.
 */
function checkLifetime({ iat, exp }: JWTPayload): void {
  // jose has checked both are numbers (requiredClaims).
  if (exp! - iat! > MAX_TOKEN_AGE_SECONDS) {
    throw unauthorized(`The token's lifetime (exp - iat) is ${exp! - iat!} s; at most ${MAX_TOKEN_AGE_SECONDS} s is accepted.`)
  }
}

/** The claims that tie the token to this very request. */
function checkRequestClaims(payload: JWTPayload, req: IncomingMessage, rawBody: Buffer, baseUrl: string): void {
  const { method, url, bodyHash } = payload
  if (method !== req.method) throw unauthorized(`The method claim must be ${req.method}.`)
  if (!namesRequest(url, baseUrl, req.url ?? '')) {
    throw unauthorized('The url claim must be the full URL of this request.')
  }
  if (bodyHash !== createHash('sha256').update(rawBody).digest('hex')) {
    throw unauthorized('The bodyHash claim must be the lowercase hex SHA-256 of the request body.')
  }
}

/**
 * Whether the url claim is `base` followed by the request's path and query. Leading slashes of
 * the path count as one, as the router counts them: a client whose base URL ends in a slash
 * requests and signs `base//v1/...`, and means `/v1/...`.
 */
function namesRequest(claim: unknown, base: string, requestTarget: string): boolean {
  const signed = normalisedUrl(claim)
  const root = normalisedUrl(base)?.replace(/\/$/, '')
  if (signed === undefined || root === undefined || !signed.startsWith(root + '/')) return false
  const signedTarget = withOneLeadingSlash(signed.slice(root.length))
  return normalisedUrl(root + signedTarget) === normalisedUrl(root + withOneLeadingSlash(requestTarget))
}

/**
 * Parsed and serialised again, as fetch does before it sends: a signed `/a/../b` or `:80` is
 * the `/b` on the default port that arrives. A percent-encoded dot stays data, as the router
 * keeps it (`%2E` is escaped once more first, which the parser leaves alone), so a token signed
 * for `/identities/authenticate` does not pass for `/identities/%2E/authenticate`.
 */
function normalisedUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  try {
    return new URL(value.replace(/%2e/gi, '%252E')).href
  } catch {
    return undefined
  }
}

/** Says why, for the integrator reading the 401: the mock is a development tool, secrets are not at stake. */
function refusalOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return `The token has expired (${error.message}).`
  if (error instanceof errors.JWTClaimValidationFailed) return `The token's ${error.claim} claim is wrong: ${error.message}.`
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The token must be signed with HS256.'
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The token is not signed with the secret of its API key.'
  return 'The token is not a valid signed JWT.'
}
