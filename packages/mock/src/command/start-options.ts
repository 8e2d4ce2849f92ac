// The options of `service-auth-mock` that say where the state is kept and who may reach the
// service, for a start script of one's own that runs the mock beside an app (this repository's
// `npm start` does): read as the command reads them, from the same definitions.
import { parseArgs } from 'node:util'
import { ACCESS_ARGS, ACCESS_USAGE, accessOptionsFrom } from './service-config.js'
import { STATE_ARGS, STATE_USAGE, stateOptionsFrom, type StateOptions } from './state-options.js'

export interface StartOptions {
  /** Where the state is kept (`--data`, `--in-memory`), and what to export or import (`--export`, `--import`). */
  state: StateOptions
  /** Origins whose pages may use the knobs besides the service's own (`--knobs-origin`, SERVICE_KNOBS_ORIGIN). */
  knobsOrigins: string[]
  /** Host names the servers answer to besides their own (`--allowed-hosts`, SERVICE_ALLOWED_HOSTS). */
  allowedHosts: string[]
}

/**
 * `--data`, `--in-memory`, `--export`, `--import`, `--knobs-origin` and `--allowed-hosts`, and
 * their variables (SERVICE_DATA, SERVICE_KNOBS_ORIGIN, SERVICE_ALLOWED_HOSTS); a mistake throws
 * an Error that names it and lists these options.
 * @example const { state, knobsOrigins, allowedHosts } = readStartOptions(process.argv.slice(2), process.env)
 */
export function readStartOptions(args: readonly string[], env: Record<string, string | undefined>): StartOptions {
  const values = parsed(args)
  return { state: stateOptionsFrom(values, env), ...accessOptionsFrom(values, env) }
}

function parsed(args: readonly string[]) {
  try {
    return parseArgs({ args: [...args], options: { ...STATE_ARGS, ...ACCESS_ARGS }, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new Error(`${(error as Error).message} Options: ${STATE_USAGE}, ${ACCESS_USAGE}.`)
  }
}
