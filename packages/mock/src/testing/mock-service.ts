// The mock service for an integrator's tests: started in this process, or one already running
// (`service-auth-mock`), with the few things a test of a login page does to it: give someone a
// phone, sign or expire the code the page shows, make the next requests fail.
import { generateCredentials } from '../common/credentials.js'
import { startService } from '../service/server.js'
import type { RequestKind } from '../service/knobs/fault-rules.js'
import { DEFAULT_TEST_IDENTITY } from '../service/test-keys/test-keys.js'
import { createClient } from 'service-auth/server'
import { TestKitError } from './errors.js'
import type { PageLike } from './page.js'
import { readShownCode, type ShownCode, type ShownCodeOptions } from './shown-code.js'


/** The next requests to fail, as the /__knobs/fail knob queues them. */
export interface Failure {
  /** The status to answer (with problem JSON, or `body`); ignored with `network`. */
  status?: number
  /** How many matching requests fail; default 1. */
  count?: number
  /** Which requests: default `any`, every /v1/ request (your controller's calls included). */
  match?: RequestKind | 'any'
  /** A Retry-After header, in seconds. */
  retryAfter?: number
  /** A raw body instead of problem JSON, and its Content-Type. */
  body?: string
  contentType?: string
  /** Drop the connection without an answer. */
  network?: boolean
}

/** A mock service to steer from a test. */
export interface MockServiceControls {
  /** The service's base URL: the page's `data-service-api` and your controller's SERVICE_URL. */
  readonly url: string
  /** An API key of the service, any origin allowed. */
  readonly key: string
  /** Its secret, Base64, for your controller. */
  readonly secret: string
  /** Enrols the identity with `key` and provisions a phone for it, as the phone app would by scanning the enrollment code. */
  enrolPhone(identity: string): Promise<void>
  /** The identity's phone signs the code the page shows (waiting for one within `timeout`); which code, and which widget showed it. */
  signShownCode(page: PageLike, identity: string, options?: ShownCodeOptions): Promise<ShownCode>
  /** The code the page shows expires now, as if its time had run out. */
  expireShownCode(page: PageLike, options?: ShownCodeOptions): Promise<ShownCode>
  /** The next matching requests fail: `failNext({ status: 503, count: 2, match: 'create' })`. */
  failNext(failure: Failure): Promise<void>
}

/** A mock service this process started. */
export interface MockService extends MockServiceControls {
  /** Stops it; held polls are dropped. */
  close(): Promise<void>
}

export interface StartMockServiceOptions {
  /** Default 0: a free port. */
  port?: number
  /** The test keys (test-signs, test-expires, test-unavailable); default on. */
  testKeys?: boolean
  /** Who signs the test-signs codes; default test@example.com. */
  testIdentity?: string
}

/**
 * Starts the mock service in this process, on 127.0.0.1 (a free port), with its knobs and test
 * keys, in memory, with a key of its own: one per test (or per worker) keeps tests apart.
 * @example const service = await startMockService()  // then point your app at service.url, .key, .secret
 */
export async function startMockService({ port = 0, testKeys = true, testIdentity = DEFAULT_TEST_IDENTITY }: StartMockServiceOptions = {}): Promise<MockService> {
  const { apiKey: key, apiSecret: secret } = generateCredentials()
  const handle = await startService({ port, keys: [{ key, secret }], knobs: true, testKeys: testKeys && { identity: testIdentity } })
  return { ...connectMockService({ url: handle.url, key, secret }), close: () => handle.close() }
}

/**
 * Steers a mock service started elsewhere (`npx service-auth-mock`, say, from Playwright's
 * webServer) with one of its keys; its knobs must be on.
 * @example const service = connectMockService({ url: 'http://127.0.0.1:8081', key, secret })
 */
export function connectMockService({ url, key, secret }: { url: string; key: string; secret: string }): MockServiceControls {
  const base = url.replace(/\/+$/, '')

  async function knob(path: string, body?: unknown): Promise<Response> {
    try {
      return await fetch(`${base}/__knobs/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch (error) {
      throw new TestKitError(`the mock service at ${base} cannot be reached (${(error as Error).message})`)
    }
  }

  async function refused(res: Response, what: string): Promise<TestKitError> {
    const text = await res.text()
    if (res.status === 404 && !text.includes('"status"')) return new TestKitError(`the mock service at ${base} has no knobs: start it with them on`)
    let detail = text
    try {
      detail = (JSON.parse(text) as { detail?: string }).detail ?? text
    } catch {
      // Not problem JSON: the text says it.
    }
    return new TestKitError(`${what}: the mock service answered ${res.status}: ${detail}`)
  }

  /** The shown code, checked to be one of this service's challenges (so a test never acts on another's); with its app. */
  async function ownShownCode(page: PageLike, options?: ShownCodeOptions): Promise<ShownCode & { app: string }> {
    const shown = await readShownCode(page, options)
    const res = await knob('challenges')
    if (!res.ok) throw await refused(res, 'listing the challenges')
    const challenge = ((await res.json()) as { id: string; app: string }[]).find(({ id }) => id === shown.challengeId)
    if (!challenge) {
      throw new TestKitError(`the code on the page (challenge ${shown.challengeId}) is not one of the mock service's at ${base}: does the page's data-service-api name ${base}?`)
    }
    return { ...shown, app: challenge.app }
  }

  return {
    url: base,
    key,
    secret,

    async enrolPhone(identity) {
      const { enrollment } = await createClient({ baseUrl: base, key, secret }).enroll({ identifier: identity })
      const res = await knob('devices', { token: enrollment.id })
      if (res.status !== 201) throw await refused(res, `setting up ${identity}'s phone`)
    },

    async signShownCode(page, identity, options) {
      const { app, ...shown } = await ownShownCode(page, options)
      const res = await knob(`challenges/${encodeURIComponent(shown.challengeId)}/sign`, { identifier: identity })
      if (res.status === 404 || res.status === 403) {
        const detail = ((await res.json()) as { detail?: string }).detail ?? ''
        if (/identity|device/.test(detail)) {
          const otherApp = app === key ? '' : ` (the page's code is of the app "${app}", and enrolPhone enrols with the key ${key})`
          throw new TestKitError(`${identity} has no phone: call enrolPhone first${otherApp}`)
        }
        throw new TestKitError(`signing the code on the page: ${detail}`)
      }
      if (res.status === 409) throw new TestKitError(`the code on the page (challenge ${shown.challengeId}) can no longer be signed: ${((await res.json()) as { detail: string }).detail}`)
      if (!res.ok) throw await refused(res, 'signing the code on the page')
      return shown
    },

    async expireShownCode(page, options) {
      const { app: _app, ...shown } = await ownShownCode(page, options)
      const res = await knob(`challenges/${encodeURIComponent(shown.challengeId)}/expire`, {})
      if (res.status !== 204) throw await refused(res, 'expiring the code on the page')
      return shown
    },

    async failNext({ status, count, match, retryAfter, body, contentType, network }) {
      if (status === undefined && !network) throw new TestKitError('failNext needs a status, or network: true')
      const rule = { status: status ?? 500, count, match, retryAfter: retryAfter === undefined ? undefined : String(retryAfter), body, contentType, network }
      const res = await knob('fail', rule)
      if (res.status !== 204) throw await refused(res, 'queueing the failure')
    },
  }
}
