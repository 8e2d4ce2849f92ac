// The mock service for an integrator's tests: started in this process, or one already running
// (`service-auth-mock`), with the few things a test of a login page does to it: give someone a
// phone, sign or expire the code the page shows, make the next requests fail, wait or hold.
import { generateCredentials } from '../common/credentials.js'
import { startService } from '../service/server.js'
import { DEFAULT_TEST_IDENTITY } from '../service/test-keys/published-keys.js'
import { createClient, ServiceError, ServiceUnreachableError } from 'service-auth/server'
import type { MockService, MockServiceControls } from './controls.js'
import { KnobError, TestKitError } from './errors.js'
import { describeProblem } from './problem-detail.js'
import { watchHandOver } from './hand-over.js'
import { KnobClient } from './knob-client.js'
import { given } from '../common/given.js'
import { listenRefusedReason } from '../common/listen-refused.js'
import { mockUrl } from './mock-url.js'
import type { PageLike } from './page.js'
import { DEFAULT_TIMEOUT_MS, readShownCode, type ShownCode, type ShownCodeOptions } from './shown-code.js'

export interface StartMockServiceOptions {
  /** Default 0: a free port. */
  port?: number
  /** The test keys (test-signs, test-expires, test-unavailable); default on. */
  testKeys?: boolean
  /** Who signs the test-signs codes; default test@example.com. */
  testIdentity?: string
}

/** A mock started elsewhere, and the key to steer it through. */
export interface ConnectMockServiceOptions {
  /** Its base URL, e.g. `http://127.0.0.1:8081`: an http(s) URL, as a string or a URL. */
  url: string | URL
  /** One of its keys, and the key's secret (Base64). */
  key: string
  secret: string
}

/** A mock started elsewhere, shared with other tests: the kit takes a fresh key of its own there. */
export interface IsolatedMockServiceOptions {
  url: string | URL
  isolate: true
}

/**
 * Starts the mock service in this process, on 127.0.0.1 (a free port), with its knobs and test
 * keys, in memory, with a key of its own: one per test (or per worker) keeps tests apart.
 * @example const service = await startMockService()  // then point your app at service.url, .key, .secret
 */
export async function startMockService({
  port = 0,
  testKeys = true,
  testIdentity = DEFAULT_TEST_IDENTITY,
}: StartMockServiceOptions = {}): Promise<MockService> {
  const { apiKey: key, apiSecret: secret } = generateCredentials()
  const handle = await startService({ port, keys: [{ key, secret }], knobs: true, testKeys: testKeys && { identity: testIdentity } }).catch(
    (error: unknown) => {
      const reason = listenRefusedReason(port, error, { option: "startMockService's port option", free: 'leave it out for a free one' })
      throw reason === undefined ? error : new TestKitError(reason)
    },
  )
  return { ...connectMockService({ url: handle.url, key, secret }), close: () => handle.close() }
}

/**
 * Steers a mock service started elsewhere (`npx service-auth-mock`, say, from Playwright's
 * webServer); its knobs must be on. With one of its keys, the controls act through that key.
 * With `isolate: true` the mock hands out a fresh key of an app of its own (POST /__knobs/keys),
 * for this test alone: its failures, delays, holds and signings touch no other test's page,
 * however many share the mock. Its `close()` frees the key when the test ends.
 * @example const service = await connectMockService({ url: 'http://127.0.0.1:8081', isolate: true })
 */
export function connectMockService(options: ConnectMockServiceOptions): MockServiceControls
export function connectMockService(options: IsolatedMockServiceOptions): Promise<MockService>
export function connectMockService(options: ConnectMockServiceOptions | IsolatedMockServiceOptions): MockServiceControls | Promise<MockService> {
  // A mistake in the options throws as this overload answers: at once, or as the promise's rejection.
  if (!isIsolated(options)) {
    const { url, key, secret } = checkedConnection(options)
    return controls(new KnobClient(url), key, secret)
  }
  return (async () => {
    const knobs = new KnobClient(mockUrl(options.url, "connectMockService's url"))
    const { key, secret } = await knobs.createKey()
    return {
      ...controls(knobs, key, secret),
      // The key, and all the test made with it, freed on the shared mock, which may hand out keys for hours.
      async close() {
        await knobs.freeKey(key).catch((error: unknown) => {
          // 404: freed already (by an earlier close, or after an hour unused).
          if (!(error instanceof KnobError && error.status === 404)) throw rephrased('freeing its key')(error)
        })
      },
    }
  })()
}

// isolate: true, not merely there: `isolate: false` beside a key and a secret asks for that key.
const isIsolated = (options: unknown): options is IsolatedMockServiceOptions =>
  typeof options === 'object' && options !== null && (options as { isolate?: unknown }).isolate === true

/**
 * The options a caller in JavaScript may get wrong, refused before anything is asked of the mock:
 * `url: 123` failed with JavaScript's own "url.replace is not a function", and a URL without its
 * scheme (`localhost:8081`) only at the first control, as a fetch failure. The key and secret are
 * checked by the client the controls make at once (createClient's TypeErrors name them).
 */
function checkedConnection(options: unknown): ConnectMockServiceOptions & { url: string } {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`connectMockService takes { url, key, secret } or { url, isolate: true }, not ${given(options)}.`)
  }
  const connection = options as ConnectMockServiceOptions
  const url = mockUrl(connection.url, "connectMockService's url")
  // Neither given: most likely a test that meant a fresh key of its own. (One of them wrong is
  // for createClient's checks to name.)
  if (connection.key === undefined && connection.secret === undefined) {
    throw new TypeError(
      'connectMockService takes { url, key, secret } (a key of that mock, and its secret) or { url, isolate: true } (a fresh key of its own): key and secret are missing.',
    )
  }
  return { ...connection, url }
}

/** The controls, acting through `key`: every knob they call names it. */
function controls(knobs: KnobClient, key: string, secret: string): MockServiceControls {
  const base = knobs.url
  // Made now, not at the first enrolPhone: its checks of the key and secret throw here.
  const api = createClient({ baseUrl: base, key, secret })

  return {
    url: base,
    key,
    secret,

    async enrolPhone(identity) {
      const { enrollment } = await api.enroll({ identifier: identity }).catch(enrolRefused(identity, base, key))
      await knobs.provisionDevice({ token: enrollment.id }).catch(rephrased(`setting up ${identity}'s phone`))
    },

    async signShownCode(page, identity, options) {
      const { app, ...shown } = await ownShownCode(knobs, key, page, options)
      const timeout = options?.timeout ?? DEFAULT_TIMEOUT_MS
      const signedIn = await watchHandOver(page, shown, { identity, key, timeout, widget: options?.widget })
      await knobs.signChallenge(shown.challengeId, { identifier: identity, key }).catch(refusedSigning({ identity, app, key, challengeId: shown.challengeId }))
      await signedIn()
      return shown
    },

    async expireShownCode(page, options) {
      const { app: _app, ...shown } = await ownShownCode(knobs, key, page, options)
      await knobs.expireChallenge(shown.challengeId, { key }).catch(rephrased('expiring the code on the page'))
      return shown
    },

    async failNext({ status, count, match, retryAfter, body, contentType, location, network }) {
      if (status === undefined && !network) throw new TestKitError('failNext needs a status, or network: true')
      const retry = retryAfter === undefined ? undefined : String(retryAfter)
      await knobs.fail({ status: status ?? 500, count, match, retryAfter: retry, body, contentType, location, network, key })
    },

    async delayNext({ ms, count, match }) {
      await knobs.delay({ ms, count, match, key })
    },

    async holdNext({ count, match } = {}) {
      await knobs.hold({ count, match, key })
    },

    held() {
      return knobs.held({ key })
    },

    release() {
      return knobs.release({ key })
    },
  }
}

/** The shown code, checked to be one of this key's challenges (so a test never acts on another's); with its app. */
async function ownShownCode(knobs: KnobClient, key: string, page: PageLike, options?: ShownCodeOptions): Promise<ShownCode & { app: string }> {
  const base = knobs.url
  const shown = await readShownCode(page, options)
  const challenge = (await knobs.challenges()).find(({ id }) => id === shown.challengeId)
  if (!challenge) {
    throw new TestKitError(
      `the code on the page (challenge ${shown.challengeId}) is not one of the mock service's at ${base}: does the page's data-service-api name ${base}?`,
    )
  }
  if (challenge.key !== key) {
    throw new TestKitError(
      `the code on the page (challenge ${shown.challengeId}) is of the key ${challenge.key}, not ${key}: does the page's data-service-key name ${key}?`,
    )
  }
  return { ...shown, app: challenge.app }
}

/**
 * The signing knob's refusal, said as what the test should do: enrol the phone first, or show a
 * code that can still be signed; any other, as what the kit was doing.
 */
const refusedSigning =
  ({ identity, app, key, challengeId }: { identity: string; app: string; key: string; challengeId: string }) =>
  (error: unknown): never => {
    // No mock, or no knobs, says so as it is.
    if (!(error instanceof KnobError) || error.what === undefined) throw error
    const { status, detail = '' } = error
    if (status === 404 || status === 403) {
      if (/identity|device/.test(detail)) {
        const otherApp = app === key ? '' : ` (the page's code is of the app "${app}", and enrolPhone enrols with the key ${key})`
        throw new TestKitError(`${identity} has no phone: call enrolPhone first${otherApp}`)
      }
      throw new TestKitError(`signing the code on the page: ${detail}`)
    }
    if (status === 409) throw new TestKitError(`the code on the page (challenge ${challengeId}) can no longer be signed: ${detail}`)
    throw rephrased('signing the code on the page')(error)
  }

/** A knob's refusal, said as what the kit was doing: `setting up ada@example.com's phone: the mock service answered 410: …`. */
const rephrased =
  (what: string) =>
  (error: unknown): never => {
    // No mock, or no knobs, says so as it is.
    if (!(error instanceof KnobError) || error.what === undefined) throw error
    throw KnobError.refusal({ what, status: error.status ?? 0, detail: error.detail ?? '', errors: error.errors })
  }

/**
 * The enrolment, the one control signed with the key and secret, refused: a key that is not the
 * mock's, or a secret that is not the key's, said with what to pass instead, not as the service's
 * bare "Unauthorized: The token's iss names no API key this service knows."
 */
const enrolRefused =
  (identity: string, base: string, key: string) =>
  (error: unknown): never => {
    if (error instanceof ServiceUnreachableError)
      throw new TestKitError(`enrolling ${identity}: the mock service at ${base} cannot be reached (${error.message})`)
    if (!(error instanceof ServiceError)) throw error
    const problem = describeProblem(error)
    if (error.status === 401) {
      throw new TestKitError(
        `enrolling ${identity}: the mock service at ${base} refused the key ${key} with its secret (401: ${problem}): ` +
          "pass connectMockService one of its keys and that key's secret (the SERVICE_API_KEY and SERVICE_API_SECRET it was started with), or { url, isolate: true } for a fresh key of its own",
      )
    }
    if (error.status === 403) {
      throw new TestKitError(
        `enrolling ${identity}: the mock service at ${base} refused it to the key ${key} (403: ${problem}): give the key the enroll permission, or use another`,
      )
    }
    throw new TestKitError(`enrolling ${identity}: the mock service at ${base} answered ${error.status}: ${problem}`)
  }
