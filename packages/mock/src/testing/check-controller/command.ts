// `service-auth-mock check-controller`: the check from the command line. Its options (over the
// environment the controller itself reads), its help, the table or the JSON, and the exit code:
// 0 when nothing fails (warnings allowed), 1 when a check fails, 2 when it could not run.
import { parseArgs } from 'node:util'
import type { Output } from '../../command/command-line.js'
import { TestKitError } from '../errors.js'
import type { ControllerCheckReport } from './cases.js'
import { type CheckControllerOptions, checkControllerNaming, type OptionNames } from './check-controller.js'
import { formatReport } from './report.js'

interface OptionSpec {
  /** The placeholder of its value in the help; a flag has none. */
  value?: string
  /** The variable it defaults to. */
  env?: string
  /** The checkController option it gives; the command's own (--json, --help) give none. */
  option?: keyof CheckControllerOptions
  help: string
}

/** Every option of `service-auth-mock check-controller`, by its flag, in the order --help lists them. */
export const CHECK_OPTIONS = {
  controller: { value: 'URL', option: 'controller', help: "your controller's absolute URL, which the check calls as the embed does" },
  identity: { value: 'ID', option: 'identity', help: 'a user your store lets sign in (enrolled at the mock with a test phone if it has none)' },
  'signed-in': {
    value: 'URL',
    option: 'signedIn',
    help: 'a page that answers 2xx only to a signed-in browser; without it, sessions are judged by the answers',
  },
  service: { value: 'URL', env: 'SERVICE_URL', option: 'service', help: 'the mock service your controller is configured with' },
  key: { value: 'KEY', env: 'SERVICE_KEY', option: 'key', help: 'the API key your controller uses' },
  secret: { value: 'SECRET', env: 'SERVICE_SECRET', option: 'secret', help: 'its secret (Base64)' },
  json: { help: 'print {"checks": [{id, title, outcome, evidence, fix}]} instead of the table' },
  help: { help: 'this help' },
} satisfies Record<string, OptionSpec>

type Flag = keyof typeof CHECK_OPTIONS

/** A flag as the command's messages name it: `--signed-in`, `--service (or SERVICE_URL)`. */
const named = (flag: Flag) => {
  const { env }: OptionSpec = CHECK_OPTIONS[flag]
  return `--${flag}${env ? ` (or ${env})` : ''}`
}

/** Each checkController option's flag, from the table: what the check's messages call it here. */
const FLAG_OF = Object.fromEntries(
  (Object.entries(CHECK_OPTIONS) as [Flag, OptionSpec][]).flatMap(([flag, { option }]) => (option ? [[option, flag]] : [])),
) as Record<keyof CheckControllerOptions, Flag>
const FLAG_NAMES = Object.fromEntries(Object.entries(FLAG_OF).map(([option, flag]) => [option, named(flag)])) as OptionNames

export function checkUsage(): string {
  const specs = Object.entries(CHECK_OPTIONS) as [string, OptionSpec][]
  const width = Math.max(...specs.map(([name, spec]) => name.length + (spec.value ? spec.value.length + 1 : 0)))
  const lines = specs.map(
    ([name, spec]) => `  --${(name + (spec.value ? ' ' + spec.value : '')).padEnd(width)}  ${spec.help}${spec.env ? ` (default ${spec.env})` : ''}`,
  )
  return `Usage: service-auth-mock check-controller --controller URL --identity ID [--signed-in URL] [options]

Checks your controller (spec section 4), in any language, against the mock service it is
configured with: valid sign-ins must pass; forged, expired, replayed and unconfirmed tokens must
be refused with no session; weaknesses are warned of. Exit 0: nothing failed (warnings allowed);
1: a check failed; 2: the check could not run.

Options:
${lines.join('\n')}`
}

type Env = Record<string, string | undefined>

/** Runs the command; its exit code. */
export async function runCheckCommand(args: readonly string[], env: Env, output: Output): Promise<number> {
  let values: Record<string, string | boolean | undefined>
  try {
    ;({ values } = parseArgs({
      args: [...args],
      options: Object.fromEntries(
        Object.entries(CHECK_OPTIONS).map(([name, spec]: [string, OptionSpec]) => [name, { type: spec.value ? 'string' : 'boolean' }] as const),
      ),
      strict: true,
      allowPositionals: false,
    }))
  } catch (error) {
    output.error(`${(error as Error).message}\n\n${checkUsage()}`)
    return 2
  }
  if (values.help) {
    output.log(checkUsage())
    return 0
  }
  const given = (name: keyof typeof CHECK_OPTIONS) => {
    const spec: OptionSpec = CHECK_OPTIONS[name]
    return (values[name] as string | undefined) ?? (spec.env ? env[spec.env] : undefined)
  }
  const missing = (['controller', 'identity', 'service', 'key', 'secret'] as const).filter((name) => !given(name))
  if (missing.length) {
    output.error(`Missing: ${missing.map(named).join(', ')}.\n\n${checkUsage()}`)
    return 2
  }
  const options = Object.fromEntries(Object.entries(FLAG_OF).map(([option, flag]) => [option, given(flag)])) as unknown as CheckControllerOptions
  let report: ControllerCheckReport
  try {
    report = await checkControllerNaming(options, FLAG_NAMES)
  } catch (error) {
    // What the kit says of a mock or an app it cannot use; anything else is a bug of ours, and shows whole.
    const message = error instanceof TestKitError ? error.message : `a bug of the check: ${error instanceof Error ? error.stack : String(error)}`
    if (values.json) output.log(JSON.stringify({ error: message }))
    else output.error(`The check could not run: ${message}${/[.?!]$/.test(message) ? '' : '.'}`)
    return 2
  }
  const sessions = options.signedIn ? `sessions judged by ${options.signedIn}` : 'sessions judged by its answers (no --signed-in)'
  const heading = `Checked ${options.controller} as ${options.identity}, against the mock at ${options.service}; ${sessions}`
  output.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report, heading))
  return report.checks.some(({ outcome }) => outcome === 'fail') ? 1 : 0
}
