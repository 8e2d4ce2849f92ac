// The mock service on a free port for one test file, spoken to over real HTTP: requests signed
// as spec section 5 says (with jose, claims overridable for the bad-token cases), the knobs, and
// the steps of the sign-in flow that many tests share.
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SignJWT, type JWTHeaderParameters, type JWTPayload } from 'jose'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { ApiKeyOptions } from '../../src/service/access/api-keys.js'
import { startService, type ServiceHandle, type ServiceOptions } from '../../src/service/server.js'
import { openDataStore } from '../../src/store/open-store.js'
import type { Store } from '../../src/store/store.js'
import { checkAnswersAgainstContract } from './contract.js'

export interface TestKey {
  key: string
  /** Base64, as the service hands it out. */
  secret: string
}

export const newKey = (name: string): TestKey => ({ key: `${name}-${randomBytes(4).toString('hex')}`, secret: randomBytes(32).toString('base64') })

export const sha256Hex = (body: string | Buffer) => createHash('sha256').update(body).digest('hex')

export interface SignOptions {
  key: TestKey
  method: string
  /** The full URL. */
  url: string
  /** The raw body the hash covers. */
  body?: string | Buffer
  aud: string
  /** Replace claims; `undefined` drops one. */
  claims?: Record<string, unknown>
  header?: Partial<JWTHeaderParameters>
  /** Sign with these bytes instead of the decoded secret. */
  signingKey?: Uint8Array
}

/** The Authorization token of a request, as a well-behaved client makes it. */
export async function signRequest({ key, method, url, body = '', aud, claims = {}, header = {}, signingKey }: SignOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const payload: JWTPayload = { iss: key.key, aud, iat: now, nbf: now, exp: now + 10, method, url, bodyHash: sha256Hex(body), ...claims }
  for (const name of Object.keys(payload)) if (payload[name] === undefined) delete payload[name]
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...header }).sign(signingKey ?? new Uint8Array(Buffer.from(key.secret, 'base64')))
}

export interface ApiRequest {
  body?: unknown
  /** Sent verbatim instead of JSON.stringify(body). */
  rawBody?: string | Buffer
  key?: TestKey
  /** The Authorization header as it is; `null` sends none. */
  authorization?: string | null
  claims?: Record<string, unknown>
  headers?: Record<string, string>
  /** As fetch's: 'manual' to see a redirect rather than follow it. */
  redirect?: RequestRedirect
}

export interface TestService {
  url: string
  key: TestKey
  handle: ServiceHandle
  /** A signed request to the /v1/ API. */
  api(method: string, path: string, request?: ApiRequest): Promise<Response>
  knob(path: string, body?: unknown, method?: string): Promise<Response>
  /** POST /v1/entity/challenges as the embed sends it; the Challenge. */
  createChallenge(key?: TestKey): Promise<{ id: string; expiresAt: string; pollingUrl: string; authTokenUrl: string }>
  /** Enroll (signed) and redeem the token as a phone; the device id. */
  provisionPhone(identifier: string, key?: TestKey): Promise<string>
  /** The phone signs; the token the widget would get. */
  sign(challengeId: string, identifier: string): Promise<string>
}

/**
 * Starts one service for the file (127.0.0.1, port 0) with knobs on and `keys` besides its
 * own, resets it before each test, and closes it after the file. In memory, as the tests run it;
 * `SERVICE_TEST_STORE=data` runs the same tests against a data directory (`npm run test:service:data`).
 * Every answer any server of the file gives is checked against openapi.yaml (contract.ts).
 */
export function useService(options: Partial<ServiceOptions> = {}, keys: ApiKeyOptions[] = []): TestService {
  checkAnswersAgainstContract()
  const key = newKey('main')
  // The key is known at once, so test tables defined at module level can name it.
  const service = { key } as TestService
  const dataDir = process.env.SERVICE_TEST_STORE === 'data' ? mkdtempSync(join(tmpdir(), 'service-auth-test-')) : undefined
  let store: Store | undefined
  beforeAll(async () => {
    if (dataDir !== undefined) store = await openDataStore(dataDir)
    const handle = await startService({ port: 0, knobs: true, ...options, keys: [{ key: key.key, secret: key.secret }, ...keys], store })
    Object.assign(service, makeClient(handle, key))
  })
  beforeEach(async () => {
    if ((await service.knob('reset')).status !== 204) throw new Error('The reset knob failed.')
  })
  afterAll(async () => {
    await service.handle?.close()
    await store?.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })
  return service
}

function makeClient(handle: ServiceHandle, key: TestKey): TestService {
  const url = handle.url
  const client: TestService = {
    url,
    key,
    handle,
    async api(method, path, request = {}) {
      const body = request.rawBody ?? (request.body === undefined ? '' : JSON.stringify(request.body))
      const authorization =
        request.authorization !== undefined
          ? request.authorization
          : await signRequest({ key: request.key ?? key, method, url: url + path, body, aud: url, claims: request.claims })
      const headers: Record<string, string> = { ...(request.body !== undefined && { 'Content-Type': 'application/json' }), ...request.headers }
      if (authorization !== null) headers.Authorization = authorization
      const sent = typeof body === 'string' ? body : new Uint8Array(body)
      return fetch(url + path, { method, headers, body: sent.length ? sent : undefined, redirect: request.redirect ?? 'follow' })
    },
    knob(path, body, method = 'POST') {
      return fetch(`${url}/__knobs/${path}`, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    },
    async createChallenge(challengeKey = key) {
      const res = await fetch(url + '/v1/entity/challenges', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ key: challengeKey.key, returnAuthImageData: false }),
      })
      if (res.status !== 201) throw new Error(`create challenge answered ${res.status}: ${await res.text()}`)
      return res.json()
    },
    async provisionPhone(identifier, enrollKey = key) {
      const enrolled = await client.api('POST', '/v1/entity/identities/enroll', { body: { identifier }, key: enrollKey })
      if (!enrolled.ok) throw new Error(`enroll answered ${enrolled.status}: ${await enrolled.text()}`)
      const { id } = (await enrolled.json()) as { id: string }
      const provisioned = await client.knob('devices', { token: `serviceauth:enroll:${id}` })
      if (provisioned.status !== 201) throw new Error(`provisioning answered ${provisioned.status}: ${await provisioned.text()}`)
      return ((await provisioned.json()) as { device: { id: string } }).device.id
    },
    async sign(challengeId, identifier) {
      const res = await client.knob(`challenges/${challengeId}/sign`, { identifier })
      if (res.status !== 200) throw new Error(`sign answered ${res.status}: ${await res.text()}`)
      return ((await res.json()) as { token: string }).token
    },
  }
  return client
}

/** The problem JSON of an error answer, checked for the RFC 7807 shape on the way. */
export async function problemOf(
  res: Response,
): Promise<{ type: string; title: string; status: number; detail: string; instance: string; errors?: Record<string, { code: string; message: string }[]> }> {
  if (!res.headers.get('content-type')?.startsWith('application/problem+json')) {
    throw new Error(`Not problem JSON (${res.status} ${res.headers.get('content-type')}): ${await res.text()}`)
  }
  const problem = await res.json()
  for (const field of ['type', 'title', 'detail', 'instance']) {
    if (typeof problem[field] !== 'string') throw new Error(`The problem has no ${field}: ${JSON.stringify(problem)}`)
  }
  if (problem.status !== res.status) throw new Error(`The problem's status ${problem.status} is not ${res.status}.`)
  return problem
}
