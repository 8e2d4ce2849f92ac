// The mock sign-in service: the browser-facing challenge endpoints of the spec, plus knobs for tests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { decodeSecret } from '../common/credentials.ts'
import { closeServer, listen } from '../common/listen.ts'
import { HttpProblem, sendProblem } from '../common/problem.ts'
import { readBody } from '../common/read-body.ts'
import { sendBytes, sendEmpty } from '../common/respond.ts'
import { handlerFor, matchRoute, requestUrl } from '../common/router.ts'
import { serve } from '../common/serve.ts'
import { Timers } from '../common/timers.ts'
import { serveChallengeImage } from './challenge-image.ts'
import { checkChallengeStatus } from './challenge-status.ts'
import { ChallengeStore } from './challenge-store.ts'
import type { ApiRoute, ServiceContext, ServiceSettings } from './context.ts'
import { corsHeaders, KNOB_CORS_HEADERS, PREFLIGHT_HEADERS } from './cors.ts'
import { createChallenge } from './create-challenge.ts'
import { RuleQueue, type DelayRule, type FailRule } from './fault-rules.ts'
import { KNOB_ROUTES } from './knob-routes.ts'
import { RequestLog } from './request-log.ts'

export interface ServiceOptions {
  port?: number
  apiKey: string
  /** Base64 text of the secret's bytes. */
  apiSecret: string
  /** Exact origins allowed to call the browser-facing endpoints; empty allows any. */
  allowedOrigins: string[]
  /** Serve the /__knobs/ endpoints. */
  knobs?: boolean
  /** Default 120000. */
  challengeTtlMs?: number
  /** How long a status request is held; default 1000 (the spec's "about one second"). */
  holdMs?: number
}

export interface ServiceHandle {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string
  /** Replaces the allowed origins, for callers that learn them only after the service listens. */
  setAllowedOrigins(origins: string[]): void
  close(): Promise<void>
}

const API_ROUTES: ApiRoute[] = [
  { pattern: /^\/v1\/entity\/challenges$/, kind: 'create', methods: { POST: createChallenge } },
  { pattern: /^\/v1\/entity\/challenges\/([^/]+)\/status$/, kind: 'status', methods: { GET: checkChallengeStatus } },
  { pattern: /^\/v1\/entity\/challenges\/([^/]+)\/images\/([^/]+)$/, kind: 'image', methods: { GET: serveChallengeImage } },
]

export async function startService(options: ServiceOptions): Promise<ServiceHandle> {
  const defaults: ServiceSettings = {
    holdMs: checkedMs('holdMs', options.holdMs ?? 1000, 0),
    challengeTtlMs: checkedMs('challengeTtlMs', options.challengeTtlMs ?? 120_000, 1),
  }
  if (!options.apiKey) throw new Error('startService needs an apiKey.')
  let allowedOrigins = options.allowedOrigins
  const timers = new Timers()
  const context: ServiceContext = {
    url: '',
    apiKey: options.apiKey,
    secret: decodeSecret(options.apiSecret),
    allowedOrigins: () => allowedOrigins,
    settings: { ...defaults },
    defaults,
    store: new ChallengeStore(timers),
    failRules: new RuleQueue<FailRule>(),
    delayRules: new RuleQueue<DelayRule>(),
    log: new RequestLog(),
    timers,
  }

  const server = createServer(
    serve(async (req, res) => {
      // Every answer closes its connection. Browsers silently retry a request whose reused
      // keep-alive connection drops before any answer, which would swallow a knob-forced
      // network failure; on a fresh connection the failure reaches the embed as it should.
      res.setHeader('Connection', 'close')
      const url = requestUrl(req.url, 'http://127.0.0.1')
      if (url.pathname === '/__knobs' || url.pathname.startsWith('/__knobs/')) {
        if (!options.knobs) throw new HttpProblem(404, 'There is nothing at this address.')
        await handleKnob(context, req, res, url)
      } else {
        await handleApi(context, req, res, url)
      }
    }),
  )
  context.url = await listen(server, options.port)

  return {
    url: context.url,
    setAllowedOrigins(origins) {
      allowedOrigins = [...origins]
    },
    async close() {
      timers.clearAll()
      context.store.close()
      await closeServer(server)
    },
  }
}

async function handleApi(context: ServiceContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const logged = context.log.record(req, url)
  const match = matchRoute(API_ROUTES, url.pathname)
  if (match) {
    // Set before anything can fail, so every answer of these endpoints carries them.
    for (const [name, value] of Object.entries(corsHeaders(req.headers.origin, context.allowedOrigins()))) {
      res.setHeader(name, value!)
    }
  }
  logged.body = await readBody(req)
  if (match && req.method === 'OPTIONS') return sendEmpty(res, 204, PREFLIGHT_HEADERS)
  const handler = handlerFor(match, req.method)
  const { route, params } = match!

  if (route.kind === 'status') {
    const challenge = context.store.get(params[0] ?? '')
    if (challenge) challenge.polls += 1
  }
  const delay = context.delayRules.take(route.kind)
  if (delay) await context.timers.sleep(delay.ms)
  const failure = context.failRules.take(route.kind)
  if (failure) return answerWithFailure(req, res, failure, url)

  await handler(context, { req, res, url, params, body: logged.body })
}

/** Answers as a knob `fail` rule says, instead of handling the request. */
function answerWithFailure(req: IncomingMessage, res: ServerResponse, rule: FailRule, url: URL): void {
  if (rule.network) {
    req.socket.destroy()
    return
  }
  const headers: Record<string, string> = rule.retryAfter === undefined ? {} : { 'Retry-After': rule.retryAfter }
  if (rule.status === 204 || rule.status === 304) {
    sendEmpty(res, rule.status, headers)
  } else if (rule.body !== undefined || rule.contentType !== undefined) {
    sendBytes(res, rule.status, rule.body ?? '', rule.contentType ?? 'text/plain; charset=utf-8', headers)
  } else {
    sendProblem(res, new HttpProblem(rule.status, 'This failure was queued with /__knobs/fail.', undefined, headers), url.pathname)
  }
}

async function handleKnob(context: ServiceContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  for (const [name, value] of Object.entries(KNOB_CORS_HEADERS)) res.setHeader(name, value!)
  const body = await readBody(req)
  if (req.method === 'OPTIONS') return sendEmpty(res, 204, PREFLIGHT_HEADERS)
  const match = matchRoute(KNOB_ROUTES, url.pathname)
  const handler = handlerFor(match, req.method)
  await handler(context, { req, res, url, params: match!.params, body })
}

/** Options are the caller's code, not user input: out-of-range values are a programming error. */
function checkedMs(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min || value > 86_400_000) {
    throw new Error(`${name} must be an integer from ${min} to 86400000 ms, not ${value}.`)
  }
  return value
}
