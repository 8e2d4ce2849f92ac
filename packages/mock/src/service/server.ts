// The mock sign-in service: the whole /v1/ API of the spec, plus knobs for tests. What it is given
// goes to a store: in memory by default, or a data directory (../store/).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import {
  AllowedHosts,
  answerClientErrorsWithProblems,
  closeServer,
  HttpProblem,
  listen,
  readBodyBytes,
  refuseForeignHost,
  requestPath,
  requestUrl,
  sendEmpty,
  serve,
} from '@service-auth/http'
import { Timers } from '../common/timers.js'
import { injectFaults } from '../knobs/fault-injection.js'
import { KnobOrigins } from '../knobs/knob-access.js'
import { Faults, type KnobContext } from '../knobs/knob-context.js'
import { handleKnob, isKnobPath } from '../knobs/knob-endpoints.js'
import { RequestLog } from '../knobs/request-log.js'
import { memoryStore } from '../store/open-store.js'
import type { Store } from '../store/store.js'
import { answeringWhenStored, refuseChangesWhileFull } from '../store/stored-answers.js'
import { KeyRing, type ApiKeyOptions } from './access/api-keys.js'
import { corsHeaders, PREFLIGHT_HEADERS } from './access/cors.js'
import { RateLimiter } from './access/rate-limiter.js'
import { ChallengeStore } from './challenges/challenge-store.js'
import { ConfigurationStore } from './configuration/configuration-store.js'
import type { ServiceContext } from './context.js'
import { EnrollmentStore } from './enrollments/enrollment-store.js'
import { Outbox } from './enrollments/outbox.js'
import { apiRouteOf, endpointFor, handleApi } from './handle-api.js'
import { ServiceHooks } from './hooks.js'
import { IdentityStore } from './identities/identity-store.js'
import { SessionStore } from './sessions/session-store.js'
import { DEFAULT_SETTINGS, SETTING_NAMES, SETTING_RANGES, type ServiceSettings } from './settings.js'
import type { TestKeyOptions } from './test-keys/published-keys.js'
import { TestKeys } from './test-keys/test-keys.js'
import { given } from '../common/given.js'

export interface ServiceOptions {
  /** The port on 127.0.0.1, an integer from 0 to 65535; default 0, a free one. */
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
  // First, before anything is made that would have to be undone.
  const port = checkedPort(options.port)
  const defaults = checkedSettings(options)
  const timers = new Timers()
  const settings = { ...defaults }
  const knobOrigins = new KnobOrigins(options.knobsOrigins)
  const allowedHosts = new AllowedHosts(options.allowedHosts)
  const store = options.store ?? memoryStore()
  const context = createContext(options, store, settings, timers)
  // The knobs' own state, apart from the service's: only the knob layer and its fault-injection step see it.
  const knobs: KnobContext = { service: context, faults: new Faults(), log: new RequestLog(), defaults }

  const server = createServer(
    // Node answers a request without Host itself, with a bare 400; it gets problem JSON below instead.
    { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    // An answer leaves once what its request stored is on disk, or is a 507 (answeringWhenStored).
    serve(answeringWhenStored(routeRequest({ knobsOn: options.knobs ?? false, knobs, knobOrigins, allowedHosts, store }))),
  )
  answerClientErrorsWithProblems(server)
  // Undoes what the start made: for close(), and for a start that fails, so that nothing it made
  // (the stores' timers, above all) goes on changing the store it was given once it has failed.
  const stop = async () => {
    timers.clearAll()
    context.stores.challenges.close()
    context.stores.enrollments.close()
    await closeServer(server)
    // Their connections are gone: let held requests go, so their handlers end rather than wait for good.
    knobs.faults.holds.clear()
    if (!options.store) await store.close()
  }
  const { addresses } = context
  try {
    if (options.testKeys) new TestKeys(options.testKeys === true ? {} : options.testKeys).plugInto(context)
    addresses.url = await listen(server, port)
  } catch (error) {
    await stop()
    throw error
  }
  addresses.publicUrl = addresses.baseUrl ?? addresses.url
  allowedHosts.addOwn(addresses.url, addresses.publicUrl)
  knobOrigins.addOwn(addresses.url, addresses.publicUrl)

  return {
    url: addresses.url,
    settings: defaults,
    setAllowedOrigins: (key, origins) => context.access.keys.setAllowedOrigins(key, origins),
    addKnobsOrigins: (origins) => knobOrigins.add(origins),
    close: stop,
  }
}

/** What a request is routed with: the knobs (and whether they are served), who may use them, the hosts served, the store. */
interface Routing {
  knobsOn: boolean
  knobs: KnobContext
  knobOrigins: KnobOrigins
  allowedHosts: AllowedHosts
  store: Store
}

/** Every request's first steps, whatever it asks (its connection, its Host), then the knobs' way or the API's. */
function routeRequest({ knobsOn, knobs, knobOrigins, allowedHosts, store }: Routing) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Every answer closes its connection. Browsers silently retry a request whose reused
    // keep-alive connection drops before any answer, which would swallow a knob-forced
    // network failure; on a fresh connection the failure reaches the embed as it should.
    res.setHeader('Connection', 'close')
    if (req.headers.host === undefined) throw new HttpProblem(400, 'The request has no Host header.', {})
    refuseForeignHost(req, allowedHosts)
    const url = requestUrl(req.url, 'http://127.0.0.1')
    const path = requestPath(req.url!)
    if (isKnobPath(path)) {
      if (!knobsOn) throw new HttpProblem(404, 'There is nothing at this address.')
      await handleKnob(knobs, knobOrigins, req, res, url, path)
    } else {
      await handleServiceRequest(knobs, store, req, res, url, path)
    }
  }
}

/**
 * What the service's handlers share. Its addresses are filled in once it listens; its stores
 * build their maps from `store` as they are made.
 */
function createContext(options: ServiceOptions, store: Store, settings: ServiceSettings, timers: Timers): ServiceContext {
  return {
    addresses: { url: '', publicUrl: '', baseUrl: options.baseUrl === undefined ? undefined : checkedBaseUrl(options.baseUrl) },
    access: {
      keys: new KeyRing(options.keys),
      rateLimiter: new RateLimiter(() => settings),
      clientAddressHeader: checkedHeaderName(options.clientAddressHeader),
    },
    stores: {
      challenges: new ChallengeStore(timers, store.collection('challenges')),
      identities: new IdentityStore(store.collection('identities')),
      enrollments: new EnrollmentStore(store.collection('enrollments')),
      sessions: new SessionStore(store.collection('sessions')),
      configurations: new ConfigurationStore(store.collection('configurations')),
      outbox: new Outbox(store.collection('outbox')),
    },
    settings,
    timers,
    hooks: new ServiceHooks(),
  }
}

/**
 * A /v1/ request's way to its endpoint, one step each: the knobs' request log has it from its
 * arrival; a browser-facing endpoint's CORS headers are set before anything can fail; the body
 * is read (into the log too), and a preflight answered; routing names the endpoint (or the 404,
 * 405); the knobs' faults stand in front of it; a change is refused while the disk is full; and
 * the endpoint's handler answers.
 */
async function handleServiceRequest(knobs: KnobContext, store: Store, req: IncomingMessage, res: ServerResponse, url: URL, path: string): Promise<void> {
  const { service } = knobs
  const logged = knobs.log.record(req, url)
  const match = apiRouteOf(path)
  const browserFacing = match?.route.browserFacing ?? false
  if (browserFacing) {
    for (const [name, value] of Object.entries(corsHeaders(req.headers.origin, service.access.keys.anyAllowsOrigin(req.headers.origin)))) {
      res.setHeader(name, value!)
    }
  }
  const rawBody = await readBodyBytes(req)
  const body = rawBody.toString('utf8')
  knobs.log.setBody(logged, body)
  if (browserFacing && req.method === 'OPTIONS') return sendEmpty(res, 204, PREFLIGHT_HEADERS)
  const endpoint = endpointFor(match, req.method)
  const exchange = { req, res, url, params: endpoint.params, body, rawBody }
  if (await injectFaults(knobs, endpoint.route, exchange)) return
  refuseChangesWhileFull(store, req.method)
  await handleApi(service, endpoint, exchange)
}

/** The settings `options` gives, the defaults for the others; each checked against SETTING_RANGES, in its order. */
function checkedSettings(options: ServiceOptions): ServiceSettings {
  const settings = { ...DEFAULT_SETTINGS }
  for (const name of SETTING_NAMES) {
    const { min, max } = SETTING_RANGES[name]
    settings[name] = checked(name, options[name] ?? DEFAULT_SETTINGS[name], min, max)
  }
  return settings
}

/** Options are the caller's code or configuration, not user input: bad values are refused at start-up. */
function checked(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not ${value}.`)
  }
  return value
}

/**
 * Node's listen() takes a string as a pipe's path: `port: 'abc'` from a caller in JavaScript
 * would make a socket file named abc in the working directory, serve on it, and leave the
 * process running, with an error about a TCP address only.
 */
function checkedPort(port: unknown): number {
  if (port === undefined) return 0
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError(`port must be an integer from 0 to 65535 (0 picks a free one), not ${given(port)}.`)
  }
  return port
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
