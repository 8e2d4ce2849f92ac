// Where the sign knob's time goes inside the service, for the shared-farm phase (farm.ts) run with
// `npm run bench:farm -- --trace`. Loaded into the service's own process (capacity-service.ts)
// before it starts, it watches from outside the mock's code, which it does not change: the
// request's arrival and its answer's end (Node's http server), jose's signing (SignJWT.prototype
// .sign, the instance the mock imports), and the store's backend (its write's commit, and the
// flush its answer waits for). Beside them, the service's event-loop delay, and how long a job
// that takes no time waits for libuv's thread pool, where jose's HMAC (WebCrypto), lmdb's
// commits and the file system's calls all run.
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomFill } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { Server, type IncomingMessage, ServerResponse } from 'node:http'
import { monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks'
import { SignJWT } from 'jose'
import type { Store } from '@service-auth/mock/service'

/** One traced request, ms on the service's performance.now() clock; undefined: the phase did not happen. */
export interface TracedRequest {
  kind: 'sign' | 'status' | 'create' | 'other'
  /** The challenge a sign knob or a status request names. */
  id?: string
  /** Wall clock at arrival, ms since the epoch: to tell the quiet window from the loaded one. */
  at: number
  arrived: number
  signStart?: number
  signEnd?: number
  writeIssued?: number
  committed?: number
  flushed?: number
  /** The answer's end() reached Node's own (after the writes it waited for). */
  ended?: number
}

export interface ServiceTrace {
  requests: TracedRequest[]
  /** Wall clock, ms since the epoch, and the thread pool's wait for a job that takes no time, ms. */
  pool: [number, number][]
  /** Wall clock, ms, and the event loop's delay p99 over the last second, ms. */
  lag: [number, number][]
  threadPoolSize: string
  /** Wall clock, ms, and how long the backend's refusal() held the event loop, ms, when over a millisecond (its room grows the file under LMDB's write lock). */
  refusals: [number, number][]
  /** Wall clock, ms, and the pause of each garbage collection over 10 ms, ms. */
  gc: [number, number][]
}

const POOL_PROBE_EVERY_MS = 20
const LAG_EVERY_MS = 1000

/** Starts tracing; `write()` puts what it saw into `file` as JSON. */
export function traceService(store: Store, file: string): { write(): void } {
  const requests: TracedRequest[] = []
  const byResponse = new WeakMap<ServerResponse, TracedRequest>()
  const context = new AsyncLocalStorage<TracedRequest>()
  const now = () => performance.now()

  const emit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args)
    const [req, res] = args as [IncomingMessage, ServerResponse]
    const record: TracedRequest = { ...kindOf(req), at: Date.now(), arrived: now() }
    requests.push(record)
    byResponse.set(res, record)
    return context.run(record, () => emit.call(this, event, ...args))
  } as typeof Server.prototype.emit

  const end = ServerResponse.prototype.end
  ServerResponse.prototype.end = function (this: ServerResponse, ...args: unknown[]) {
    const record = byResponse.get(this)
    if (record && record.ended === undefined) record.ended = now()
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args)
  } as typeof ServerResponse.prototype.end

  const sign = SignJWT.prototype.sign
  SignJWT.prototype.sign = async function (this: SignJWT, ...args: Parameters<SignJWT['sign']>) {
    const record = context.getStore()
    if (record) record.signStart = now()
    try {
      return await sign.apply(this, args)
    } finally {
      if (record) record.signEnd = now()
    }
  }

  const backend = store.backend
  const write = backend.write.bind(backend)
  backend.write = (collection, id, text) => {
    const written = write(collection, id, text)
    const record = context.getStore()
    if (record?.kind === 'sign' && collection === 'challenges') {
      record.writeIssued = now()
      void written?.then(() => (record.committed = now()))
    }
    return written
  }
  const flushed = backend.flushed.bind(backend)
  backend.flushed = () => {
    const flushing = flushed()
    const record = context.getStore()
    if (record?.kind === 'sign' && record.committed !== undefined) void flushing?.then(() => (record.flushed ??= now()))
    return flushing
  }

  const refusals: [number, number][] = []
  const refusal = backend.refusal.bind(backend)
  backend.refusal = () => {
    const start = now()
    try {
      return refusal()
    } finally {
      const took = now() - start
      if (took > 1) refusals.push([Date.now(), took])
    }
  }

  const gc: [number, number][] = []
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.duration > 10) gc.push([performance.timeOrigin + entry.startTime, entry.duration])
  })
  collections.observe({ entryTypes: ['gc'] })

  const pool: [number, number][] = []
  const probe = setInterval(() => {
    const sent = now()
    randomFill(Buffer.alloc(1), () => pool.push([Date.now(), now() - sent]))
  }, POOL_PROBE_EVERY_MS)
  const lag: [number, number][] = []
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  const lagTimer = setInterval(() => {
    lag.push([Date.now(), Math.max(0, histogram.percentile(99) / 1e6 - 10)])
    histogram.reset()
  }, LAG_EVERY_MS)

  return {
    write() {
      clearInterval(probe)
      clearInterval(lagTimer)
      histogram.disable()
      collections.disconnect()
      const trace: ServiceTrace = { requests, pool, lag, refusals, gc, threadPoolSize: process.env.UV_THREADPOOL_SIZE ?? '4 (default)' }
      writeFileSync(file, JSON.stringify(trace))
    },
  }
}

function kindOf(req: IncomingMessage): Pick<TracedRequest, 'kind' | 'id'> {
  const path = req.url ?? ''
  const sign = /^\/__knobs\/challenges\/([^/]+)\/sign/.exec(path)
  if (req.method === 'POST' && sign) return { kind: 'sign', id: decodeURIComponent(sign[1]!) }
  const status = /^\/v1\/entity\/challenges\/([^/]+)\/status/.exec(path)
  if (req.method === 'GET' && status) return { kind: 'status', id: decodeURIComponent(status[1]!) }
  if (req.method === 'POST' && path.startsWith('/v1/entity/challenges')) return { kind: 'create' }
  return { kind: 'other' }
}
