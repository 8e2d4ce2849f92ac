// The mock service alone, in a process of its own, for the capacity and abuse phases: the load
// generator (the bench) and the service then each get one of the two cores, as in a load test
// between two machines, instead of sharing one event loop. Started by capacity.ts; it prints its
// URL as one JSON line and ends when its standard input closes, so it never outlives the bench.
// The rate limits are off unless the settings name them (the abuse phase wants the defaults).
// With `dataDir`, the state goes to a data directory there, as `npm start` keeps it; without, to memory.
import { memoryStore, openDataStore, startService } from '@service-auth/mock/service'

export interface ServiceProcessSettings {
  apiKey: string
  apiSecret: string
  holdMs: number
  rateLimit?: number
  browserRateLimit?: number
  dataDir?: string
  /** Trace the service into this file when it stops (service-trace.ts; the shared-farm phase's --trace). */
  traceFile?: string
}

const { apiKey, apiSecret, holdMs, rateLimit = 0, browserRateLimit = 0, dataDir, traceFile } = JSON.parse(process.argv[2] ?? '{}') as ServiceProcessSettings
const store = dataDir === undefined ? memoryStore() : await openDataStore(dataDir)
const trace = traceFile === undefined ? undefined : (await import('./service-trace.js')).traceService(store, traceFile)
const service = await startService({
  port: 0,
  keys: [{ key: apiKey, secret: apiSecret, allowedOrigins: [] }],
  knobs: true,
  holdMs,
  rateLimit,
  browserRateLimit,
  store,
})
process.stdout.write(JSON.stringify({ url: service.url }) + '\n')

const stop = () =>
  void service
    .close()
    .then(() => store.close())
    .then(() => trace?.write())
    .then(() => process.exit(0))
process.stdin.on('end', stop).on('close', stop).resume()
process.once('SIGTERM', stop)
