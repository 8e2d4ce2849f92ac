import { SignJWT } from 'jose'
import type { SignedRequestPayload } from '../wire/signed-request.js'
import { isHttp } from './http-url.js'
import { checkSentAsBuilt, pathSegment } from './path-segment.js'
import { ServiceError, ServiceUnreachableError } from './problem.js'
import type { Authentication, Configuration, Enrollment, Identity, Session } from './resources.js'
import { secretBytes } from './secret.js'

export interface ClientOptions {
  /** The service's base URL, e.g. `https://api.service-auth.example`. */
  baseUrl: string
  /** The API key. */
  key: string
  /** The API secret, as the Base64 text the service issued (at least 32 bytes decoded; a TypeError otherwise). */
  secret: string
  /** Milliseconds before a request is given up; default 10 000. */
  timeout?: number
  /** A fetch to use instead of the global one (Node 20 or later has it). */
  fetch?: typeof fetch
}

/** The fields enrolment accepts (spec section 4, "Enroll identity"). */
export interface EnrollInput {
  identifier: string
  nickname?: string
  role?: string
  /** Enrolment lifetime in seconds. */
  timeout?: number
  sendEmail?: boolean
  sendEmailTo?: string
  sendEmailLocale?: string
  /** The time zone the e-mail gives the expiry in, e.g. `Europe/Berlin`. */
  sendEmailTimeZone?: string
}

/** What update may change (spec section 4, "Update identity"); absent fields stay as they are. */
export interface IdentityChanges {
  nickname?: string | null
  role?: string
  /** A locked identity cannot confirm sign-ins: authenticate answers 423. */
  locked?: boolean
}

/** What `configuration.update` may change; absent fields stay, null clears a URL. */
export interface ConfigurationChanges {
  websiteUrl?: string | null
  authenticationUrl?: string | null
  registrationUrl?: string | null
  sessionsEnabled?: boolean
}

/** What each of the client's methods takes last: `signal` aborts its request, which then rejects with the signal's reason (an AbortError), as fetch does. */
export interface RequestOptions {
  signal?: AbortSignal
}

/** Your own record of a session, reported with `sessions.update`. */
export interface SessionReport {
  id: string
  /** When your session was last used (ISO 8601). */
  clientSessionUpdatedAt?: string
  /** When your session expires (ISO 8601); a time in the past ends it. */
  clientSessionExpiresAt?: string
}

export type Client = ReturnType<typeof createClient>

// Spec section 5: "a few seconds after iat, for example 10, to allow for latency".
const TOKEN_LIFETIME = 10

// The most of an answer read. The service's are kilobytes (a list of a thousand identities, a
// megabyte or so); anything past this is a proxy's or a broken service's, and read whole it
// would fill the integrator's server's memory for as long as the timeout lets it stream.
const LARGEST_ANSWER = 16 * 1024 * 1024

/**
 * A client for the service's server-side API. Every request is signed as spec section 5 says:
 * an HS256 JWT in the Authorization header with `iss`, `aud`, `iat`, `nbf`, `exp`, `method`,
 * `url` and `bodyHash`. Problem responses throw ServiceError; no answer throws ServiceUnreachableError.
 * @example const client = createClient({ baseUrl, key, secret }); await client.authenticate(identifier, { challenge, otp })
 */
export function createClient(options: ClientOptions) {
  const connection = readOptions(options)
  const { base, key } = connection
  const request = <T>(method: string, path: string, options: RequestOptions | undefined, body?: unknown) =>
    signedRequest<T>(connection, { method, path, body, signal: options?.signal })

  // Built inside the async methods below, so a PathSegmentError rejects rather than throws.
  const identityPath = (identifier: string) => '/v1/entity/identities/' + pathSegment(identifier)
  const call = async <T>(method: string, path: string, options: RequestOptions | undefined, body?: unknown): Promise<T> =>
    (await request<T>(method, path, options, body)).body

  return {
    /** The API key, which the controller checks a token's `aud` against. */
    key,
    /** The service's base URL without a trailing `/`, which the controller checks a token's `iss` against. */
    baseUrl: base,
    /** Resolves when the key and secret are good; a ServiceError with status 401 when they are not. */
    async check(options?: RequestOptions): Promise<void> {
      await request('POST', '/v1/entity/check', options, { message: 'ping' })
    },
    /** Creates or updates an identity and a new enrolment token; `created` tells a new identity (201) from a known one (200). */
    async enroll(input: EnrollInput, options?: RequestOptions): Promise<{ enrollment: Enrollment; created: boolean }> {
      const { status, body } = await request<Enrollment>('POST', '/v1/entity/identities/enroll', options, input)
      return { enrollment: body, created: status === 201 }
    },
    identities: {
      /** One identity; a ServiceError with status 404 when there is none. */
      get: async (identifier: string, options?: RequestOptions) => call<Identity>('GET', identityPath(identifier), options),
      /** The identities in creation order, up to `limit` (default and most: 1,000) from `page` (default 1). */
      list: ({ page, limit }: { page?: number; limit?: number } = {}, options?: RequestOptions): Promise<Identity[]> => {
        const query = new URLSearchParams()
        if (page !== undefined) query.set('page', String(page))
        if (limit !== undefined) query.set('limit', String(limit))
        const search = query.toString()
        return call<Identity[]>('GET', '/v1/entity/identities' + (search && '?' + search), options)
      },
      /** Changes an identity, e.g. `{ locked: true }`; resolves to the updated Identity. A ServiceError with status 404 when there is none. */
      update: async (identifier: string, changes: IdentityChanges, options?: RequestOptions) =>
        call<Identity>('POST', identityPath(identifier), options, changes),
      /** Gives an identity a new identifier; it keeps its id, devices and sessions. 404 when there is none, 400 when the new one is taken. */
      rename: async (identifier: string, newIdentifier: string, options?: RequestOptions) =>
        call<Identity>('PATCH', identityPath(identifier) + '/rename', options, { identifier: newIdentifier }),
      /** Deletes an identity; it can no longer sign in, and its sessions end. A ServiceError with status 404 when there is none. */
      delete: async (identifier: string, options?: RequestOptions): Promise<void> => {
        await request('DELETE', identityPath(identifier), options)
      },
    },
    devices: {
      /** Removes a device (an element of `Identity.tokens`) from its identity, e.g. a lost phone. 404 when there is none. */
      delete: async (deviceId: string, options?: RequestOptions): Promise<void> => {
        await request('DELETE', '/v1/entity/tokens/' + pathSegment(deviceId), options)
      },
    },
    /**
     * Confirms a signed challenge (spec section 4, "Authenticate"), which consumes it. Resolves to
     * the identity and the session it started (null unless sessions are on); a ServiceError with
     * status 401 means not authenticated (a wrong otp, or a challenge already used), 423 a locked
     * identity. Only a 200 confirms (spec section 4, "On 200"): any other status, a 202 or 204
     * included, rejects with a ServiceError of that status.
     */
    authenticate: async (identifier: string, confirmation: { challenge: string; otp: string }, options?: RequestOptions): Promise<Authentication> => {
      const { status, body } = await request<Authentication>('POST', identityPath(identifier) + '/authenticate', options, confirmation)
      if (status !== 200) throw new ServiceError(status, { title: 'Not confirmed', detail: `authenticate answered ${status}, and only a 200 confirms.` })
      return body
    },
    configuration: {
      get: (options?: RequestOptions) => call<Configuration>('GET', '/v1/entity/configuration', options),
      /** E.g. `{ sessionsEnabled: true }`; resolves to the whole configuration. */
      update: (changes: ConfigurationChanges, options?: RequestOptions) => call<Configuration>('PATCH', '/v1/entity/configuration', options, changes),
    },
    sessions: {
      /** The live sign-in sessions of your app. */
      list: async (options?: RequestOptions): Promise<Session[]> => (await call<{ items: Session[] }>('GET', '/v1/entity/sessions', options)).items,
      /** One session; a ServiceError with status 404 once it has ended. */
      get: async (id: string, options?: RequestOptions) => call<Session>('GET', '/v1/entity/sessions/' + pathSegment(id), options),
      /** Reports your sessions' times; resolves to the live sessions, so ids missing from it have ended at the service. */
      update: async (reports: SessionReport[], options?: RequestOptions): Promise<Session[]> =>
        (await call<{ items: Session[] }>('PATCH', '/v1/entity/sessions', options, reports)).items,
      /** Logs a session out. 404 when it has ended already. */
      logout: async (id: string, options?: RequestOptions): Promise<void> => {
        await request('DELETE', '/v1/entity/sessions/' + pathSegment(id), options)
      },
    },
  }
}

/**
 * One request, signed as spec section 5 says, and its answer: the parsed body of a 2xx, a
 * ServiceError for any other status, a ServiceUnreachableError when nothing answered in time.
 */
async function signedRequest<T>(
  { base, key, signingKey, timeout, fetchImpl }: Connection,
  { method, path, body, signal }: { method: string; path: string; body?: unknown; signal?: AbortSignal | undefined },
): Promise<{ status: number; body: T }> {
  checkSentAsBuilt(base, path)
  const url = base + path
  const raw = body === undefined ? '' : JSON.stringify(body)
  const now = Math.floor(Date.now() / 1000)
  const authorization = await new SignJWT({ method, url, bodyHash: await sha256Hex(raw) } satisfies Partial<SignedRequestPayload>)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(key)
    .setAudience(base)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + TOKEN_LIFETIME)
    .sign(signingKey)
  let res: Response
  let text: string | undefined
  try {
    res = await fetchImpl(url, {
      method,
      headers: { Authorization: authorization, Accept: 'application/json', ...(raw && { 'Content-Type': 'application/json' }) },
      body: raw || undefined,
      // The service's API does not redirect. Followed, a redirect would send the body (an otp)
      // elsewhere, and that place's 200 would read as the service's: a 3xx is a ServiceError.
      redirect: 'manual',
      // The caller's signal too, where it gave one (AbortSignal.any is newer than the timeout).
      signal: signal ? AbortSignal.any([AbortSignal.timeout(timeout), signal]) : AbortSignal.timeout(timeout),
    })
    text = await readText(res)
  } catch (error) {
    // Aborted by the caller: its reason, as fetch rejects with it, not a service that failed.
    if (signal?.aborted) throw signal.reason
    const timedOut = (error as Error)?.name === 'TimeoutError'
    throw new ServiceUnreachableError(timedOut ? `No answer within ${timeout} ms.` : `${method} ${url} failed.`, { cause: error })
  }
  if (text === undefined) {
    throw new ServiceError(res.status, {
      title: 'Answer too large',
      detail: `The service answered ${res.status} with more than ${LARGEST_ANSWER / 1024 / 1024} MiB.`,
    })
  }
  const parsed = parseJson(text)
  if (!res.ok) throw new ServiceError(res.status, parsed && typeof parsed === 'object' ? parsed : { detail: text.slice(0, 200) })
  return { status: res.status, body: parsed as T }
}

/** Where and as whom a client's requests go: its options, checked. */
type Connection = ReturnType<typeof readOptions>

/**
 * The options, checked when the client is created rather than on its first request: a TypeError
 * names the option to fix, where a missing one would otherwise fail later and far from its cause
 * (a missing key as jose's "\"iss\" claim must be a string", on the first call).
 */
function readOptions(options: ClientOptions) {
  const { baseUrl, key, secret, timeout = 10_000, fetch: fetchImpl = fetch } = options ?? ({} as Partial<ClientOptions>)
  if (!isHttpUrl(baseUrl)) {
    throw new TypeError(`baseUrl must be the service's http(s) base URL, such as "https://api.service-auth.example"; got ${shown(baseUrl)}.`)
  }
  // The key is public (it is in every login page's markup), so it may be shown back.
  if (typeof key !== 'string' || !key.trim()) throw new TypeError(`key must be the API key the service issued; got ${shown(key)}.`)
  const signingKey = secretBytes(secret)
  if (!(Number.isFinite(timeout) && timeout > 0)) throw new TypeError(`timeout must be a number of milliseconds, more than 0; got ${shown(timeout)}.`)
  if (typeof fetchImpl !== 'function') throw new TypeError('fetch must be a function, as the global fetch is.')
  return { base: baseUrl.replace(/\/+$/, ''), key, signingKey, timeout, fetchImpl }
}

// Query and fragment are refused too: paths are appended to the base URL.
const isHttpUrl = (value: unknown): value is string => typeof value === 'string' && URL.canParse(value) && isHttp(new URL(value)) && !/[?#]/.test(value)

const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : String(value))

/** With Web Crypto, which Node 20, Deno, Bun and Workers all have, rather than node:crypto. */
async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** The body as text, or undefined once it passes LARGEST_ANSWER, where its download is cancelled. */
async function readText(res: Response): Promise<string | undefined> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return text + decoder.decode()
    size += value.byteLength
    if (size > LARGEST_ANSWER) {
      await reader.cancel()
      return undefined
    }
    // A character split between chunks: the decoder keeps its first bytes for the next.
    text += decoder.decode(value, { stream: true })
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return undefined
  }
}
