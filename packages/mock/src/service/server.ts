// The mock sign-in service: the whole /v1/ API of the spec, plus knobs for tests. What it is given
// goes to a store: in memory by default, or a data directory (../store/).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import {
  answerClientErrorsWithProblems,
  closeServer,
  listen,
  HttpProblem,
  sendProblem,
  readBody,
  readBodyBytes,
  sendBytes,
  sendEmpty,
  handlerFor,
  matchRoute,
  requestPath,
  requestUrl,
  serve,
  AllowedHosts,
  refuseForeignHost,
} from '@service-auth/http'
import { Timers } from '../common/timers.js'
import { KeyRing, type ApiKeyOptions } from './access/api-keys.js'
import { API_ROUTES } from './api-routes.js'
import { ChallengeStore } from './challenges/challenge-store.js'
import { ConfigurationStore } from './configuration/configuration-store.js'
import type { ServiceContext } from './context.js'
import type { ServiceSettings } from './settings.js'
import { corsHeaders, PREFLIGHT_HEADERS } from './access/cors.js'
import { KnobOrigins, knobCorsHeaders } from '../knobs/knob-access.js'
import { DEFAULT_ENROLLMENT_TIMEOUT_SECONDS, EnrollmentStore, MAX_ENROLLMENT_TIMEOUT_SECONDS } from './enrollments/enrollment-store.js'
import { RuleQueue, type DelayRule, type FailRule } from '../knobs/fault-rules.js'
import { Holds } from '../knobs/holds.js'
import { IdentityStore } from './identities/identity-store.js'
import { KNOB_ROUTES } from '../knobs/knob-routes.js'
import { Outbox } from './enrollments/outbox.js'
import { RateLimiter } from './access/rate-limiter.js'
import { RequestLog } from '../knobs/request-log.js'
import { requestKey } from '../knobs/request-key.js'
import { SessionStore } from './sessions/session-store.js'
import { memoryStore } from '../store/open-store.js'
import type { Store } from '../store/store.js'
import { answeringWhenStored } from '../store/stored-answers.js'
import type { TestKeyOptions } from './test-keys/published-keys.js'
import { TestKeys } from './test-keys/test-keys.js'
import { ServiceHooks } from './hooks.js'

export interface ServiceOptions {
  port?: number
  /** The clients: at least one key. */
  keys: ApiKeyOptions[]
  /**
   * The public base URL, as behind a proxy: signed requests name it in aud and url, and every URL
   * the service hands out starts with it. Default: the address requests are sent to.
   */
  baseUrl?: string
  /** Serve the /__knobs/ endpoints. */
  knobs?: boolean
  /**
   * Origins whose pages may use the knobs besides the service's own, e.g. the app under
   * test's `http://127.0.0.1:8080`; requests from any other page are refused (403).
   */
  knobsOrigins?: string[]
  /**
   * Host names the service answers to besides its own (127.0.0.1 and localhost with its port, and
   * the base URL's host): `example.test` for any port, `example.test:8081` for one. Any other Host
   * is refused (403), against DNS rebinding.
   */
  allowedHosts?: string[]
  /** Default 120000. */
  challengeTtlMs?: number
  /** How long a status request is held; default 1000 (the spec's "about one second"). */
  holdMs?: number
  /** Default 86400 (a day). */
  enrollmentTimeoutSeconds?: number
  /** Signed requests per window and key; default 600, 0 turns the limit off. */
  rateLimit?: number
  /** Unsigned challenge creations per window, key and client address; default 120, 0 turns the limit off. */
  browserRateLimit?: number
  /** Default 60000. */
  rateLimitWindowMs?: number
  /**
   * For a service behind a proxy of its own: the header the proxy names the client's address in
   * (`X-Forwarded-For`: its last entry), for the per-address rate limit. Default none: the TCP
   * peer's address, since a header any client can send would let a bot pick a fresh address.
   */
  clientAddressHeader?: string
  /**
   * Where the service keeps its state: `openDataStore(dir)` for a data directory, which a restart
   * finds again. Default: a store in memory of its own, gone with close(). A store passed in is
   * the caller's to close, after the service (an app beside it may share it, as this repository's `npm start` does).
   */
  store?: Store
  /**
   * The test keys (`test-signs`, `test-expires`, `test-unavailable`, see test-keys.ts) besides
   * `keys`: `true`, or the identity that signs `test-signs` challenges. Default off here; the
   * `service-auth-mock` command and `startMockService()` turn them on.
   */
  testKeys?: boolean | TestKeyOptions
}

export interface ServiceHandle {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string
  /** The settings it started with (the knobs may change them later). */
  settings: Readonly<ServiceSettings>
  /** Replaces a key's allowed origins, for callers that learn them only after the service listens. */
  setAllowedOrigins(key: string, origins: string[]): void
  /** Lets pages of these origins use the knobs too, for callers that learn them only after the service listens. */
  addKnobsOrigins(origins: string[]): void
  close(): Promise<void>
}

// Above Node's 16 KiB, so an oversized token reaches the request check and gets its 401.
const MAX_HEADER_BYTES = 64 * 1024

export async function startService(options: ServiceOptions): Promise<ServiceHandle> {
  const defaults: ServiceSettings = {
    holdMs: checked('holdMs', options.holdMs ?? 1000, 0, 86_400_000),
    challengeTtlMs: checked('challengeTtlMs', options.challengeTtlMs ?? 120_000, 1, 86_400_000),
    enrollmentTimeoutSeconds: checked(
      'enrollmentTimeoutSeconds',
      options.enrollmentTimeoutSeconds ?? DEFAULT_ENROLLMENT_TIMEOUT_SECONDS,
      1,
      MAX_ENROLLMENT_TIMEOUT_SECONDS,
    ),
    rateLimit: checked('rateLimit', options.rateLimit ?? 600, 0, 1_000_000),
    browserRateLimit: checked('browserRateLimit', options.browserRateLimit ?? 120, 0, 1_000_000),
    rateLimitWindowMs: checked('rateLimitWindowMs', options.rateLimitWindowMs ?? 60_000, 1, 86_400_000),
  }
  const timers = new Timers()
  const settings = { ...defaults }
  const knobOrigins = new KnobOrigins(options.knobsOrigins)
  const allowedHosts = new AllowedHosts(options.allowedHosts)
  const store = options.store ?? memoryStore()
  const context: ServiceContext = {
    url: '',
    publicUrl: '',
    baseUrl: options.baseUrl === undefined ? undefined : checkedBaseUrl(options.baseUrl),
    keys: new KeyRing(options.keys),
    clientAddressHeader: checkedHeaderName(options.clientAddressHeader),
    settings,
    defaults,
    challenges: new ChallengeStore(timers, store.collection('challenges')),
    identities: new IdentityStore(store.collection('identities')),
    enrollments: new EnrollmentStore(store.collection('enrollments')),
    sessions: new SessionStore(store.collection('sessions')),
    configurations: new ConfigurationStore(store.collection('configurations')),
    outbox: new Outbox(store.collection('outbox')),
    rateLimiter: new RateLimiter(() => settings),
    failRules: new RuleQueue<FailRule>(),
    delayRules: new RuleQueue<DelayRule>(),
    holds: new Holds(),
    log: new RequestLog(),
    timers,
    hooks: new ServiceHooks(),
  }
  if (options.testKeys) new TestKeys(options.testKeys === true ? {} : options.testKeys).plugInto(context)

  const server = createServer(
    // Node answers a request without Host itself, with a bare 400; it gets problem JSON below instead.
    { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    // An answer leaves once what its request stored is on disk, or is a 507 (answeringWhenStored).
    serve(
      answeringWhenStored(async (req, res) => {
        // Every answer closes its connection. Browsers silently retry a request whose reused
        // keep-alive connection drops before any answer, which would swallow a knob-forced
        // network failure; on a fresh connection the failure reaches the embed as it should.
        res.setHeader('Connection', 'close')
        if (req.headers.host === undefined) throw new HttpProblem(400, 'The request has no Host header.', {})
        refuseForeignHost(req, allowedHosts)
        const url = requestUrl(req.url, 'http://127.0.0.1')
        const path = requestPath(req.url!)
        if (path === '/__knobs' || path.startsWith('/__knobs/')) {
          if (!options.knobs) throw new HttpProblem(404, 'There is nothing at this address.')
          // Before the body is read: a refused page's request does nothing.
          for (const [name, value] of Object.entries(knobCorsHeaders(req, knobOrigins))) res.setHeader(name, value!)
          await handleKnob(context, req, res, url, path)
        } else {
          await handleApi(context, req, res, url, path, store)
        }
      }),
    ),
  )
  answerClientErrorsWithProblems(server)
  context.url = await listen(server, options.port)
  context.publicUrl = context.baseUrl ?? context.url
  allowedHosts.addOwn(context.url, context.publicUrl)
  knobOrigins.addOwn(context.url, context.publicUrl)

  return {
    url: context.url,
    settings: defaults,
    setAllowedOrigins: (key, origins) => context.keys.setAllowedOrigins(key, origins),
    addKnobsOrigins: (origins) => knobOrigins.add(origins),
    async close() {
      timers.clearAll()
      context.challenges.close()
      context.enrollments.close()
      await closeServer(server)
      // Their connections are gone: let held requests go, so their handlers end rather than wait for good.
      context.holds.clear()
      if (!options.store) await store.close()
    },
  }
}

// What a /v1/ request may do without changing anything the store keeps.
const READING_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

async function handleApi(context: ServiceContext, req: IncomingMessage, res: ServerResponse, url: URL, path: string, store: Store): Promise<void> {
  const logged = context.log.record(req, url)
  const match = matchRoute(API_ROUTES, path)
  const browserFacing = match?.route.browserFacing ?? false
  if (browserFacing) {
    // Set before anything can fail, so every answer of these endpoints carries them.
    for (const [name, value] of Object.entries(corsHeaders(req.headers.origin, context.keys.anyAllowsOrigin(req.headers.origin)))) {
      res.setHeader(name, value!)
    }
  }
  const rawBody = await readBodyBytes(req)
  const body = rawBody.toString('utf8')
  context.log.setBody(logged, body)
  if (browserFacing && req.method === 'OPTIONS') return sendEmpty(res, 204, PREFLIGHT_HEADERS)
  const handler = handlerFor(match, req.method)
  const { route, params } = match!

  const aboutChallenge = route.kind === 'status' || route.kind === 'token' || route.kind === 'image' ? params[0] : undefined
  if (route.kind === 'status') {
    const challenge = context.challenges.get(aboutChallenge ?? '')
    if (challenge) challenge.polls += 1
  }
  const key = requestKey(context.challenges, { kind: route.kind, challengeId: aboutChallenge, body, authorization: req.headers.authorization })
  const target = { kind: route.kind, challengeId: aboutChallenge, key }
  const delay = context.delayRules.take(target)
  if (delay) {
    await context.timers.sleep(delay.ms)
    // A browser that gave up meanwhile (its page closed) must not use up the rules queued for the
    // next one: tests share the service, and a held request outlives the test that made it.
    if (req.socket.destroyed) return
  }
  const held = context.holds.take(target, { method: req.method ?? '', path: url.pathname })
  if (held) {
    await held
    if (req.socket.destroyed) return
  }
  const queued = context.failRules.take(target)
  if (queued) return answerWithFailure(req, res, queued, url, { byKnob: true })
  const standing = context.hooks.standingFault(target)
  if (standing) return answerWithFailure(req, res, standing, url, { byKnob: false })
  // Refused before it is made, so that a 507 changed nothing (a knob's change is refused when it
  // is stored, and stored once there is room: store.ts).
  const refusal = READING_METHODS.has(req.method ?? '') ? undefined : store.refusal()
  if (refusal) throw new HttpProblem(507, refusal.message)

  await handler(context, { req, res, url, params, body, rawBody })
}

/**
 * The answers a knob `fail` rule forced: off the contract (openapi.yaml) on purpose, with any
 * status, body and content type a test asked for, so the tests that check every answer against
 * the contract leave these alone. Nothing on the wire tells them apart. A standing rule of the
 * hooks (test-unavailable's 503) is the service's own answer, and held to the contract.
 */
export const forcedByKnob = new WeakSet<ServerResponse>()

/** Answers as a `fail` rule says (a knob's, or a standing one of the hooks), instead of handling the request. */
function answerWithFailure(req: IncomingMessage, res: ServerResponse, rule: FailRule, url: URL, { byKnob }: { byKnob: boolean }): void {
  if (rule.network) {
    req.socket.destroy()
    return
  }
  if (byKnob) forcedByKnob.add(res)
  const headers: Record<string, string> = rule.retryAfter === undefined ? {} : { 'Retry-After': rule.retryAfter }
  if (rule.status === 204 || rule.status === 304) {
    sendEmpty(res, rule.status, headers)
  } else if (rule.body !== undefined || rule.contentType !== undefined) {
    sendBytes(res, rule.status, rule.body ?? '', rule.contentType ?? 'text/plain; charset=utf-8', headers)
  } else {
    sendProblem(res, new HttpProblem(rule.status, rule.detail ?? 'This failure was queued with /__knobs/fail.', undefined, headers), url.pathname)
  }
}

async function handleKnob(context: ServiceContext, req: IncomingMessage, res: ServerResponse, url: URL, path: string): Promise<void> {
  const body = await readBody(req)
  if (req.method === 'OPTIONS') return sendEmpty(res, 204, { ...PREFLIGHT_HEADERS, 'Access-Control-Allow-Methods': 'GET, POST, DELETE' })
  const match = matchRoute(KNOB_ROUTES, path)
  const handler = handlerFor(match, req.method)
  await handler(context, { req, res, url, params: match!.params, body, rawBody: Buffer.from(body) })
}

/** Options are the caller's code or configuration, not user input: bad values are refused at start-up. */
function checked(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not ${value}.`)
  }
  return value
}

function checkedHeaderName(value: string | undefined): string | undefined {
  if (value !== undefined && !/^[!#$%&'*+.^`|~\w-]+$/.test(value)) throw new Error(`clientAddressHeader must be a header name, not ${JSON.stringify(value)}.`)
  return value
}

function checkedBaseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`baseUrl must be a URL, not ${JSON.stringify(value)}.`)
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash) throw new Error(`baseUrl must be an http(s) URL without query, not ${value}.`)
  return url.href.replace(/\/+$/, '')
}
