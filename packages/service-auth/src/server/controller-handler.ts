import type { Client } from './client.js'
import { PathSegmentError } from './path-segment.js'
import { ServiceError, ServiceUnreachableError } from './problem.js'
import { describeRefusal, type RefusalReason } from './refusal.js'
import { redirectOriginsOf, safeHeaders, safeLocation, UnsafeAnswerError } from './safe-answer.js'
import { AuthTokenError, verifyAuthToken, verifyOptions, type AuthTokenClaims } from './verify.js'

/** The parts of an incoming request the controller reads: a fetch `Request`, or Node's `IncomingMessage`. */
export interface ControllerRequest {
  headers: Headers | Record<string, string | string[] | undefined>
}

/**
 * What to answer; write it with your framework (`res.writeHead(status, headers).end(body)` with
 * node:http). A header with several values (`Set-Cookie`) is a list.
 */
export interface ControllerResponse {
  status: number
  headers: Record<string, string | string[]>
  body: string
}

/** What the controller uses of a client: `createClient(...)` has it all. */
export interface ControllerClient {
  /** The API key: a token's `aud`, where it has one, must name it. */
  key: string
  /** The service's base URL: a token's `iss`, where it has one, must name it (a trailing `/` aside). */
  baseUrl: string
  /** Resolves when the service answered 200, and only then; rejects with a ServiceError otherwise. */
  authenticate(identifier: string, confirmation: Parameters<Client['authenticate']>[1]): Promise<unknown>
}

export interface ControllerOptions<User> {
  /** `createClient(...)`, or anything with its `key`, `baseUrl` and `authenticate`. */
  client: ControllerClient
  /** The API secret, as the Base64 text the service issued (at least 32 bytes decoded; a TypeError otherwise). */
  secret: string
  /** The header the embed sends the token in; default `X-Service-Auth`. */
  header?: string
  /** Seconds of clock skew forgiven on the token; default 5. */
  leeway?: number
  /** Seconds since the token's `iat` after which it is refused as too old; default 300. */
  maxAge?: number
  /**
   * Origins besides your own site that `startSession` may send the browser to, such as
   * `['https://accounts.example']`; default none, so only paths on your site (`/welcome`).
   */
  redirectOrigins?: string[]
  /** Your user store: the user with this identifier who may sign in, or nothing. */
  findUser(identifier: string, claims: AuthTokenClaims): User | null | undefined | Promise<User | null | undefined>
  /**
   * Starts your session. Returns where to go next (default `/`), or that and headers to answer
   * with, such as your session cookie: `{ location: '/welcome', headers: { 'Set-Cookie': ... } }`.
   * The location is a path on your site or a URL on `redirectOrigins`; anything else, or a header
   * value with a control character, is answered with a 500 problem and never sent.
   */
  startSession(user: User, claims: AuthTokenClaims): SessionStarted | Promise<SessionStarted>
  /**
   * Told of an error the controller did not expect, such as `findUser` or `startSession`
   * throwing; the browser gets a 500 problem that does not repeat it. Default: `console.error`.
   */
  onError?(error: unknown): void
  /**
   * Told of each refusal: why, the token's claims once it was verified, and one line naming the
   * cause and its fix, such as `user test@example.com not in your store: findUser returned
   * nothing` (never the token). Default: that line to `console.warn`. Not awaited.
   */
  onRefused?(reason: RefusalReason, claims: AuthTokenClaims | undefined, line: string): void
}

/** A controller whose options were checked once, when `createController` made it. */
export interface Controller {
  /** As `handleControllerRequest(request, options)`, with the options `createController` was given. */
  handle(request: ControllerRequest): Promise<ControllerResponse>
  /** As `handleFetchRequest(request, options)`, with them. */
  handleFetch(request: Request): Promise<Response>
}

/** What `startSession` returns: where to go next, or that and headers for the answer (a list for several cookies). */
// biome-ignore lint/suspicious/noConfusingVoidType: startSession may return nothing at all (a function without return), which `undefined` would not accept
export type SessionStarted = string | void | { location?: string; headers?: Record<string, string | string[]> }

/**
 * The controller of spec section 4 in one call: read the token (1), verify it with the API secret
 * (2), take jti, sub and otp (3), ask your user store (4), confirm at the service (5), and answer
 * (6): JSON `{location}`, which the embed follows. Refusals are problem JSON: 400 for a request
 * that is not the embed's (no `X-Requested-With: XMLHttpRequest`, checked before the token is
 * read), 403 for one another site's page sent (`Sec-Fetch-Site`), 401 for a bad or expired token
 * or an unconfirmed challenge, 403 for a user who may not sign in, 423 for a locked identity, 502 when the service cannot be reached or answers other
 * than 200, each told to `onRefused`; 500 when `startSession` returns a location or headers that
 * are not safe to send, or anything throws, told to `onError`. Whatever the request holds, it
 * answers and never rejects; only bad options (a secret that is not Base64, a client without
 * its key, say) throw a TypeError, on each request, before the request is read (`createController`
 * checks them once, at start-up).
 */
export async function handleControllerRequest<User>(request: ControllerRequest, options: ControllerOptions<User>): Promise<ControllerResponse> {
  return answer(request, readOptions(options))
}

/**
 * The controller with its options checked now, as `createClient` checks its own: a bad one (an
 * `onRefused` that is not a function, a secret that is not Base64) is a TypeError that names it,
 * at start-up, rather than a rejection of every request. `handle` and `handleFetch` need no `this`.
 * @example export const GET = createController({ client, secret, findUser, startSession }).handleFetch
 */
export function createController<User>(options: ControllerOptions<User>): Controller {
  const checked = readOptions(options)
  return {
    handle: (request) => answer(request, checked),
    handleFetch: async (request) => toResponse(await answer(request, checked)),
  }
}

/** Spec section 4's steps for one request, with options already checked. */
async function answer<User>(request: ControllerRequest, options: CheckedOptions<User>): Promise<ControllerResponse> {
  const { header, redirectOrigins, verify } = options
  let claims: AuthTokenClaims | undefined
  const refuse = (reason: RefusalReason, detail = '') => {
    const refusal = describeRefusal(reason, { header, detail, identifier: claims?.identifier })
    tell(options.onRefused, reason, claims, refusal.line)
    return problem(refusal.status, refusal.title, refusal.detail)
  }
  try {
    // Only the embed's own request, never a link, a form or an <img> on another site: browsers
    // let no other site add this header without the controller's CORS consent.
    if (headerOf(request, 'X-Requested-With') !== 'XMLHttpRequest') return refuse('not-xhr')
    // And where the browser says whose page sent it, only the controller's own origin's: the
    // embed calls nothing else. Another site's page gets here only if a CORS setup lets it, and
    // with a token of its own it would sign this browser in as someone else (login CSRF). A
    // client that is no browser sends no Sec-Fetch-Site, and is judged by the rest.
    const site = headerOf(request, 'Sec-Fetch-Site')
    if (site !== undefined && site !== 'same-origin') return refuse('cross-site', site)
    let token = headerOf(request, header)
    if (/^authorization$/i.test(header)) token = token?.replace(/^Bearer\s+/i, '')
    if (!token) return refuse('no-token')
    claims = await verifyAuthToken(token, verify)
    const user = await options.findUser(claims.identifier, claims)
    // Asked before confirming: a refused user leaves the challenge unconsumed at the service.
    if (!user) return refuse('unknown-user')
    await options.client.authenticate(claims.identifier, { challenge: claims.challengeId, otp: claims.otp })
    const started = await options.startSession(user, claims)
    const next = started && typeof started === 'object' ? started : { location: started || undefined }
    const location = safeLocation(next.location || '/', redirectOrigins)
    const headers = safeHeaders(next.headers)
    return { status: 200, headers: { ...headers, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }, body: JSON.stringify({ location }) }
  } catch (error) {
    if (error instanceof AuthTokenError) return refuse(error.problem, error.message)
    // An identifier the client cannot send ("." or "..") cannot be confirmed: refused like any
    // unconfirmed sign-in, and nothing reached the service.
    if (error instanceof PathSegmentError) return refuse('not-confirmed', error.message)
    if (error instanceof ServiceUnreachableError) return refuse('unreachable', error.detail)
    if (error instanceof ServiceError) {
      if (error.status === 423) return refuse('locked', error.message)
      return refuse(error.status === 401 || error.status === 404 ? 'not-confirmed' : 'service-failed', `${error.status} ${error.message}`)
    }
    // A server must not go down over one request (with node:http, a rejected handler ends the
    // process): the integrator hears of it, the browser gets a 500 that says nothing more.
    tell(options.onError, error)
    // The session has started, but its cookie and location stay here: the browser gets neither.
    if (error instanceof UnsafeAnswerError) return problem(500, 'Internal Server Error', error.message)
    return problem(500, 'Internal Server Error', 'The sign-in could not be completed.')
  }
}

type CheckedOptions<User> = ReturnType<typeof readOptions<User>>

/**
 * The options checked before any request is read: a TypeError for a bad one, the integrator's
 * bug. The client's key and base URL are what the token's aud and iss must name. The hooks are
 * taken as they are now, their defaults filled in.
 */
function readOptions<User>(options: ControllerOptions<User>) {
  if (!options || typeof options !== 'object') throw new TypeError('The controller needs its options: { client, secret, findUser, startSession }.')
  const { client, header = 'X-Service-Auth', findUser, startSession, onError, onRefused } = options
  // A header name is an HTTP token (RFC 9110, 5.1): anything else would fail every request.
  if (typeof header !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) {
    throw new TypeError(`header must be an HTTP header name, such as 'X-Service-Auth'; got ${JSON.stringify(header)}.`)
  }
  if (!client || typeof client.authenticate !== 'function' || typeof client.key !== 'string' || typeof client.baseUrl !== 'string') {
    throw new TypeError("client must be createClient(...)'s, or have its key, baseUrl and authenticate: a token's aud and iss are checked against them.")
  }
  if (typeof findUser !== 'function') throw new TypeError('findUser must be a function: it asks your user store who may sign in.')
  if (typeof startSession !== 'function') throw new TypeError('startSession must be a function: it starts your session.')
  for (const [name, hook] of [
    ['onError', onError],
    ['onRefused', onRefused],
  ] as const) {
    if (hook !== undefined && typeof hook !== 'function') throw new TypeError(`${name} must be a function, or left out.`)
  }
  const verify = { secret: options.secret, leeway: options.leeway, maxAge: options.maxAge, audience: client.key, issuer: client.baseUrl }
  verifyOptions(verify)
  return {
    client,
    header,
    redirectOrigins: redirectOriginsOf(options.redirectOrigins),
    verify,
    // Called on the options, as methods of an options object are.
    findUser: findUser.bind(options),
    startSession: startSession.bind(options),
    // The console's, looked up when called: a test may replace console.error meanwhile.
    onError: onError ?? ((error: unknown) => console.error(error)),
    onRefused: onRefused ?? ((_reason: RefusalReason, _claims: AuthTokenClaims | undefined, line: string) => console.warn(line)),
  }
}

/**
 * Calls one of the integrator's hooks without waiting for it: a hook that throws, or returns a
 * promise that rejects (an unhandled rejection ends a Node process), costs the request nothing.
 */
function tell<Args extends unknown[]>(hook: (...args: Args) => unknown, ...args: Args): void {
  try {
    Promise.resolve(hook(...args)).catch(() => {})
  } catch {
    // Not even a broken hook may take the server down.
  }
}

function headerOf({ headers }: ControllerRequest, name: string): string | undefined {
  const value = typeof (headers as Headers).get === 'function' ? (headers as Headers).get(name) : (headers as Record<string, unknown>)[name.toLowerCase()]
  // Text only, a list's first value too: a number there would reach `replace` (Bearer) and throw.
  const first: unknown = Array.isArray(value) ? value[0] : value
  return typeof first === 'string' ? first : undefined
}

function problem(status: number, title: string, detail: string): ControllerResponse {
  return {
    status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' },
    body: JSON.stringify({ type: 'about:blank', title, status, detail }),
  }
}

/**
 * The same controller for Fetch-API runtimes (Next.js route handlers, Hono, Bun, Deno, Cloudflare
 * Workers): a standard `Request` in, a `Response` out. Nothing on this path needs Node.
 * @example export const GET = (request: Request) => handleFetchRequest(request, { client, secret, findUser, startSession })
 */
export async function handleFetchRequest<User>(request: Request, options: ControllerOptions<User>): Promise<Response> {
  return toResponse(await handleControllerRequest(request, options))
}

function toResponse({ status, headers, body }: ControllerResponse): Response {
  const fetchHeaders = new Headers()
  for (const [name, value] of Object.entries(headers)) for (const each of [value].flat()) fetchHeaders.append(name, each)
  return new Response(body || null, { status, headers: fetchHeaders })
}
