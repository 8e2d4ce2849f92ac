// The options of `service-auth-mock` that say where the state is kept and who may reach the
// service, for a start script of one's own that runs the mock beside an app (this repository's
// `npm start` does): read as the command reads them, from the same options table.
import { flagsOf, readCommandLine, UsageError } from './options.js'
import { accessOptionsFrom } from './service-config.js'
import { STATE_FLAGS, stateOptionsFrom, type StateOptions } from './state-options.js'

export interface StartOptions {
  /** Where the state is kept (`--data`, `--in-memory`), and what to export or import (`--export`, `--import`). */
  state: StateOptions
  /** Origins whose pages may use the knobs besides the service's own (`--knobs-origin`, SERVICE_KNOBS_ORIGIN). */
  knobsOrigins: string[]
  /** Host names the servers answer to besides their own (`--allowed-hosts`, SERVICE_ALLOWED_HOSTS). */
  allowedHosts: string[]
}

const START_FLAGS = [...STATE_FLAGS, 'knobsOrigins', 'allowedHosts'] as const

/**
 * `--data`, `--in-memory`, `--export`, `--import`, `--knobs-origin` and `--allowed-hosts`, and
 * their variables (SERVICE_DATA, SERVICE_KNOBS_ORIGIN, SERVICE_ALLOWED_HOSTS); a mistake throws
 * an Error that names it and lists these options.
 * @example const { state, knobsOrigins, allowedHosts } = readStartOptions(process.argv.slice(2), process.env)
 */
export function readStartOptions(args: readonly string[], env: Record<string, string | undefined>): StartOptions {
  const line = startLine(args)
  return { state: stateOptionsFrom(line, env), ...accessOptionsFrom(line, env) }
}

/** The command line, or an Error for people that lists the options it takes. */
function startLine(args: readonly string[]) {
  try {
    return readCommandLine(args, START_FLAGS)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    throw new Error(`${error.message} Options: ${flagsOf(START_FLAGS)}.`)
  }
}
