// The clients the service knows (spec section 5): each API key with its secret, the origins its
// pages may call from, what it may do, and which app's identities and challenges it works on.
import { decodeSecret } from '../../common/credentials.js'
import { given } from '../../common/given.js'
import { checkedOrigin } from '../../common/origins.js'

/**
 * What a key may do. `challenges` is the browser-facing creation; the others are server-side
 * calls. A key without the permission an endpoint needs gets 403 ("insufficient credentials").
 * Any valid key may call check and read its app's configuration.
 */
export const PERMISSIONS = ['challenges', 'enroll', 'identities:read', 'identities:write', 'authenticate', 'configuration', 'sessions'] as const
export type Permission = (typeof PERMISSIONS)[number]

export const isPermission = (value: unknown): value is Permission => (PERMISSIONS as readonly unknown[]).includes(value)

export interface ApiKeyOptions {
  key: string
  /** Base64 text of the secret's bytes. */
  secret: string
  /**
   * The origins whose pages may create challenges with this key, each `scheme://host[:port]` (a
   * trailing slash is forgiven; a path is an error, as it could never match); empty or absent allows any.
   */
  allowedOrigins?: string[]
  /** Default: all of them. */
  permissions?: Permission[]
  /**
   * Keys of the same app share identities and challenges, as a client's production key and its
   * read-only support key would. Default: the key itself, so every key is its own client.
   */
  app?: string
}

export interface ApiKey {
  key: string
  /** The decoded secret: what HS256 signs with. */
  secret: Uint8Array
  app: string
  allowedOrigins: readonly string[]
  permissions: ReadonlySet<Permission>
}

/** An Origin header is allowed when the list is empty (any origin) or names it exactly; no Origin is not a browser. */
export function isOriginAllowed(origin: string | undefined, allowedOrigins: readonly string[]): boolean {
  return origin === undefined || allowedOrigins.length === 0 || allowedOrigins.includes(origin)
}

function secretOf({ key, secret }: ApiKeyOptions): Uint8Array {
  try {
    return decodeSecret(secret)
  } catch (error) {
    throw new Error(`The secret of API key ${key}: ${error instanceof Error ? error.message : error}`)
  }
}

/** The origins as an Origin header carries them: compared as text, so each is checked and normalised once, here. */
function originsOf(key: string, origins: readonly string[]): string[] {
  if (!Array.isArray(origins)) throw new Error(`allowedOrigins of API key ${key} must be a list of origins, not ${given(origins)}.`)
  return origins.map((origin) => checkedOrigin(origin, `allowedOrigins of API key ${key}:`))
}

/** How long a key for one test (POST /__knobs/keys) lives unused: a test that took it has ended by then. */
export const ONE_TEST_KEY_IDLE_MS = 60 * 60_000

export class KeyRing {
  readonly #keys = new Map<string, ApiKey>()
  /** The keys handed out for one test, and when each was last used (epoch ms). */
  readonly #forOneTest = new Map<string, number>()
  #lookedForIdleAt = 0

  /** Options are the operator's configuration: mistakes throw at start-up instead of refusing requests later. */
  constructor(options: readonly ApiKeyOptions[]) {
    if (options.length === 0) throw new Error('The service needs at least one API key.')
    for (const option of options) this.add(option)
  }

  /** Another key, checked as at start-up: the test keys and the keys the knobs hand out (key-knobs.ts) come this way. */
  add(option: ApiKeyOptions): ApiKey {
    if (typeof option.key !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(option.key)) {
      throw new Error(`An API key must be 1 to 200 printable characters without spaces, not ${JSON.stringify(option.key)}.`)
    }
    if (this.#keys.has(option.key)) throw new Error(`The API key ${option.key} is configured twice.`)
    const permissions = option.permissions ?? PERMISSIONS
    const unknown = permissions.filter((permission) => !isPermission(permission))
    if (unknown.length > 0) throw new Error(`Unknown permissions for ${option.key}: ${unknown.join(', ')}. Known: ${PERMISSIONS.join(', ')}.`)
    const apiKey: ApiKey = {
      key: option.key,
      secret: secretOf(option),
      app: option.app ?? option.key,
      allowedOrigins: originsOf(option.key, option.allowedOrigins ?? []),
      permissions: new Set(permissions),
    }
    this.#keys.set(option.key, apiKey)
    return apiKey
  }

  /**
   * A key for one test (POST /__knobs/keys), of an app of its own and any origin: it may be freed
   * (`remove`), and it is gone once it has not been used for ONE_TEST_KEY_IDLE_MS. Each `get` uses it.
   */
  addForOneTest(option: Pick<ApiKeyOptions, 'key' | 'secret'>): ApiKey {
    const apiKey = this.add({ ...option, allowedOrigins: [] })
    this.#forOneTest.set(apiKey.key, Date.now())
    return apiKey
  }

  /** The key named by untrusted input (a body field, a token's `iss`), if it exists; a key for one test counts it as used. */
  get(key: unknown): ApiKey | undefined {
    if (typeof key !== 'string') return undefined
    const lastUsed = this.#forOneTest.get(key)
    if (lastUsed !== undefined) {
      // Gone already, though not yet freed (key-knobs.ts does that).
      if (Date.now() - lastUsed >= ONE_TEST_KEY_IDLE_MS) return undefined
      this.#forOneTest.set(key, Date.now())
    }
    return this.#keys.get(key)
  }

  /** Whether the key was handed out for one test, and so may be freed. */
  isForOneTest(key: string): boolean {
    return this.#forOneTest.has(key)
  }

  /** Frees a key for one test; the keys the service started with stay. */
  remove(key: string): void {
    if (this.#forOneTest.delete(key)) this.#keys.delete(key)
  }

  /**
   * The keys for one test unused for ONE_TEST_KEY_IDLE_MS, to be freed: looked for at most once a
   * minute, as that goes through every one of them.
   */
  idle(now = Date.now()): string[] {
    if (now - this.#lookedForIdleAt < 60_000) return []
    this.#lookedForIdleAt = now
    return [...this.#forOneTest].filter(([, lastUsed]) => now - lastUsed >= ONE_TEST_KEY_IDLE_MS).map(([key]) => key)
  }

  all(): ApiKey[] {
    return [...this.#keys.values()]
  }

  setAllowedOrigins(key: string, origins: readonly string[]): void {
    const apiKey = this.#keys.get(key)
    if (!apiKey) throw new Error(`There is no API key ${key}.`)
    apiKey.allowedOrigins = originsOf(key, origins)
  }

  /**
   * For CORS on requests that name no key (preflights, status polls, images): the origin of any
   * key's pages may read the answers. Challenge creation then checks the key's own list.
   */
  anyAllowsOrigin(origin: string | undefined): boolean {
    return this.all().some((apiKey) => isOriginAllowed(origin, apiKey.allowedOrigins))
  }
}
