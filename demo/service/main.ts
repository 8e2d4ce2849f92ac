// `npm run service`: the mock service on its own, configured from SERVICE_CONFIG and the
// environment, its state in a data directory (see demo/store/state-options.ts for the options).
import { parseArgs } from 'node:util'
import { describeState, exportState, openState, STATE_ARGS, STATE_USAGE, stateOptionsFrom } from '../store/state-options.ts'
import { rememberedCredentials } from '../store/remembered-credentials.ts'
import { ACCESS_ARGS, ACCESS_USAGE, loadServiceConfig } from './service-config.ts'
import { startService } from './server.ts'

try {
  let values
  try {
    values = parseArgs({ args: process.argv.slice(2), options: { ...STATE_ARGS, ...ACCESS_ARGS }, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new Error(`${(error as Error).message} Options: ${STATE_USAGE}, ${ACCESS_USAGE}.`)
  }
  const state = stateOptionsFrom(values, process.env)
  if (state.exportTo !== undefined) {
    const count = await exportState(state)
    console.log(`Exported ${count} records from ${state.dataDir} to ${state.exportTo}.`)
    process.exit(0)
  }
  const store = await openState(state)
  try {
    const { options, generated } = loadServiceConfig(process.env, undefined, { access: values, generate: () => rememberedCredentials(store) })
    await store.flushed()
    const service = await startService({ ...options, store })
    const { rateLimit, browserRateLimit, rateLimitWindowMs, enrollmentTimeoutSeconds } = service.settings
    console.log(`Service: ${service.url}${options.baseUrl ? ` (signed requests name ${options.baseUrl})` : ''}`)
    for (const key of options.keys) {
      const origins = key.allowedOrigins?.length ? key.allowedOrigins.join(', ') : 'any'
      const permissions = key.permissions ? key.permissions.join(', ') : 'all'
      console.log(`API key${key.key === generated.key ? ' (generated)' : ''}: ${key.key}  origins: ${origins}  permissions: ${permissions}`)
    }
    // Print only what was made up here: a secret from the environment or a file stays out of the terminal.
    // The environment's key is always the first.
    if (generated.secret) console.log(`API secret of ${options.keys[0]!.key} (generated, Base64): ${generated.secret}`)
    const per = (limit: number, what: string) => (limit === 0 ? 'off' : `${limit} ${what} per ${rateLimitWindowMs / 1000} s`)
    console.log(
      `Rate limits: ${per(rateLimit, 'signed requests per key')}; ${per(browserRateLimit, 'challenge creations per key and client address')}; enrollment timeout: ${enrollmentTimeoutSeconds} s`,
    )
    const knobsFor = ['this service', ...(options.knobsOrigins ?? [])].join(', ')
    console.log(`Knobs: ${options.knobs ? `${service.url}/__knobs/, for pages of ${knobsFor} (--knobs-origin adds one)` : 'off (SERVICE_KNOBS=1 turns them on)'}`)
    console.log(describeState(store))
    const stop = () => void service.close().then(() => store.close()).then(() => process.exit(0))
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  } catch (error) {
    await store.close()
    throw error
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
