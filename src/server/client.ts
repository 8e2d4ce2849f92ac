import { createHash } from 'node:crypto'
import { SignJWT } from 'jose'
import { ServiceError, ServiceUnreachableError } from './problem'
import { secretBytes } from './secret'

export interface ClientOptions {
  /** The service's base URL, e.g. `https://api.service-auth.example`. */
  baseUrl: string
  /** The API key. */
  key: string
  /** The API secret, as the Base64 text the service issued. */
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
}

export interface Device {
  id: string
  createdAt: string
  name: string
  model: string
  label: string
}

export interface Identity {
  id: string
  createdAt: string
  locked: boolean
  identifier: string
  nickname: string | null
  label: string
  role: string
  tokens: Device[]
}

export interface Enrollment {
  id: string
  createdAt: string
  expiresAt: string
  base64ImageData: string
  identity: Identity
}

/** What update may change (spec section 4, "Update identity"); absent fields stay as they are. */
export interface IdentityChanges {
  nickname?: string | null
  role?: string
  /** A locked identity cannot confirm sign-ins: authenticate answers 423. */
  locked?: boolean
}

export type Client = ReturnType<typeof createClient>

// Spec section 5: "a few seconds after iat, for example 10, to allow for latency".
const TOKEN_LIFETIME = 10

/**
 * A client for the service's server-side API. Every request is signed as spec section 5 says:
 * an HS256 JWT in the Authorization header with `iss`, `aud`, `iat`, `nbf`, `exp`, `method`,
 * `url` and `bodyHash`. Problem responses throw ServiceError; no answer throws ServiceUnreachableError.
 * @example const client = createClient({ baseUrl, key, secret }); await client.authenticate(identifier, { challenge, otp })
 */
export function createClient({ baseUrl, key, secret, timeout = 10_000, fetch: fetchImpl = fetch }: ClientOptions) {
  const base = baseUrl.replace(/\/+$/, '')
  const signingKey = secretBytes(secret)

  async function request<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const url = base + path
    const raw = body === undefined ? '' : JSON.stringify(body)
    const now = Math.floor(Date.now() / 1000)
    const authorization = await new SignJWT({ method, url, bodyHash: createHash('sha256').update(raw).digest('hex') })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(key)
      .setAudience(base)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + TOKEN_LIFETIME)
      .sign(signingKey)
    let res: Response
    let text: string
    try {
      res = await fetchImpl(url, {
        method,
        headers: { Authorization: authorization, Accept: 'application/json', ...(raw && { 'Content-Type': 'application/json' }) },
        body: raw || undefined,
        signal: AbortSignal.timeout(timeout),
      })
      text = await res.text()
    } catch (error) {
      const timedOut = (error as Error)?.name === 'TimeoutError'
      throw new ServiceUnreachableError(timedOut ? `No answer within ${timeout} ms.` : `${method} ${url} failed.`, { cause: error })
    }
    const parsed = parseJson(text)
    if (!res.ok) throw new ServiceError(res.status, parsed && typeof parsed === 'object' ? parsed : { detail: text.slice(0, 200) })
    return { status: res.status, body: parsed as T }
  }

  const identityPath = (identifier: string) => '/v1/entity/identities/' + encodeURIComponent(identifier)

  return {
    /** Creates or updates an identity and a new enrolment token; `created` tells a new identity (201) from a known one (200). */
    async enroll(input: EnrollInput): Promise<{ enrollment: Enrollment; created: boolean }> {
      const { status, body } = await request<Enrollment>('POST', '/v1/entity/identities/enroll', input)
      return { enrollment: body, created: status === 201 }
    },
    identities: {
      /** One identity; a ServiceError with status 404 when there is none. */
      get: async (identifier: string): Promise<Identity> => (await request<Identity>('GET', identityPath(identifier))).body,
      /** A page of identities; `query` goes to the service as it is (e.g. `{ page: 2, limit: 50 }`). */
      list: async (query: Record<string, string | number> = {}): Promise<unknown> => {
        const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString()
        return (await request('GET', '/v1/entity/identities' + (search && '?' + search))).body
      },
      /** Changes an identity, e.g. `{ locked: true }`; resolves to the updated Identity. A ServiceError with status 404 when there is none. */
      update: async (identifier: string, changes: IdentityChanges): Promise<Identity> =>
        (await request<Identity>('POST', identityPath(identifier), changes)).body,
      /** Deletes an identity; it can no longer sign in. A ServiceError with status 404 when there is none. */
      delete: async (identifier: string): Promise<void> => {
        await request('DELETE', identityPath(identifier))
      },
    },
    /**
     * Confirms a signed challenge (spec section 4, "Authenticate"), which consumes it. Resolves on
     * 200; a ServiceError with status 401 means not authenticated (a wrong otp, or a challenge
     * already used), 423 a locked identity.
     */
    async authenticate(identifier: string, confirmation: { challenge: string; otp: string }): Promise<unknown> {
      return (await request('POST', identityPath(identifier) + '/authenticate', confirmation)).body
    },
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return undefined
  }
}
