// Every setting of `service-auth-mock`, once: its flag, its environment variable, its field in the
// --config file, its default and its doc. The command line's parsing, the variables and file
// fields read (service-config.ts, state-options.ts), --help and the README's options table
// (usage.ts; a test holds the README to it) are all derived from this table.
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { DEFAULT_SETTINGS } from '../service/settings.js'
import { DEFAULT_TEST_IDENTITY } from '../service/test-keys/published-keys.js'

/** One setting: every way to give it, and what it does. Options win over variables, variables over the file. */
export interface CommandOption {
  /** Its command-line flag, without the dashes; a setting without one is given otherwise. */
  flag?: string
  /** The placeholder of the flag's value, in the help; a switch has none. */
  value?: string
  /** The flag may be given more than once, and the variable is a comma-separated list; each adds. */
  multiple?: true
  /** The environment variable that sets it. */
  env?: string
  /** Its field in the --config file. */
  config?: string
  /** What it is when nothing sets it, when that is one value. */
  default?: string | number | boolean
  /** What it does, in a line; the help and the README show it as written. */
  doc: string
}

/** The port the command listens on unless told otherwise. */
export const DEFAULT_PORT = 8081

/** The data directory, under the working directory; .gitignore names it. */
export const DEFAULT_DATA_DIR = '.service-auth'

/** In the order --help and the README list them: the flags first, then what only a variable or the file sets. */
export const COMMAND_OPTIONS = {
  port: { flag: 'port', value: 'N', env: 'SERVICE_PORT', config: 'port', default: DEFAULT_PORT, doc: 'the port on 127.0.0.1; 0 picks a free one' },
  config: { flag: 'config', value: 'FILE', env: 'SERVICE_CONFIG', doc: 'a JSON file of keys and settings, each by its config file name' },
  baseUrl: { flag: 'base-url', value: 'URL', env: 'SERVICE_BASE_URL', config: 'baseUrl', doc: 'the public base URL, when a proxy stands in front' },
  data: { flag: 'data', value: 'DIR', env: 'SERVICE_DATA', default: DEFAULT_DATA_DIR, doc: 'where the state is kept, relative to the working directory' },
  inMemory: { flag: 'in-memory', doc: 'keep nothing: every start is a fresh one' },
  export: { flag: 'export', value: 'FILE', doc: "write the data directory's state to FILE as JSON, and stop" },
  import: { flag: 'import', value: 'FILE', doc: 'seed a fresh service (a new data directory, or --in-memory) from such a file' },
  knobsOrigins: {
    flag: 'knobs-origin',
    value: 'ORIGIN',
    multiple: true,
    env: 'SERVICE_KNOBS_ORIGIN',
    config: 'knobsOrigins',
    doc: 'another origin whose pages may use the knobs, as scheme://host[:port]',
  },
  allowedHosts: {
    flag: 'allowed-hosts',
    value: 'HOST',
    multiple: true,
    env: 'SERVICE_ALLOWED_HOSTS',
    config: 'allowedHosts',
    doc: 'another host name the service answers to',
  },
  testIdentity: { flag: 'test-identity', value: 'ID', default: DEFAULT_TEST_IDENTITY, doc: 'who signs the test-signs codes' },
  noTestKeys: { flag: 'no-test-keys', doc: 'without the test keys' },
  knobs: {
    flag: 'no-knobs',
    env: 'SERVICE_KNOBS',
    config: 'knobs',
    default: true,
    doc: 'the /__knobs/ test endpoints; --no-knobs, SERVICE_KNOBS=0 or "knobs": false turns them off (SERVICE_KNOBS takes 1 or true, 0 or false)',
  },
  help: { flag: 'help', doc: 'this help' },
  apiKey: { env: 'SERVICE_API_KEY', doc: 'your own API key, the first of the keys; without one, a key is made up (a data directory remembers it)' },
  apiSecret: {
    env: 'SERVICE_API_SECRET',
    doc: 'its secret, Base64 of at least 32 bytes, as the service issues (never printed); without one, a secret is made up',
  },
  allowedOrigins: {
    env: 'SERVICE_ALLOWED_ORIGINS',
    doc: "the origins whose pages may use SERVICE_API_KEY's key, each scheme://host[:port], comma-separated; default any",
  },
  clientAddressHeader: {
    env: 'SERVICE_CLIENT_ADDRESS_HEADER',
    config: 'clientAddressHeader',
    doc: "the header a proxy of yours puts the client's address in, for the per-address rate limit",
  },
  keys: { config: 'keys', doc: 'API keys, each {key, secret, allowedOrigins?, permissions?, app?}' },
  holdMs: { config: 'holdMs', default: DEFAULT_SETTINGS.holdMs, doc: 'how long a status request is held while nothing happens, in ms' },
  challengeTtlMs: { config: 'challengeTtlMs', default: DEFAULT_SETTINGS.challengeTtlMs, doc: 'the lifetime of a challenge, in ms' },
  enrollmentTimeoutSeconds: {
    config: 'enrollmentTimeoutSeconds',
    default: DEFAULT_SETTINGS.enrollmentTimeoutSeconds,
    doc: 'the lifetime of an enrollment that names none, in s',
  },
  rateLimit: { config: 'rateLimit', default: DEFAULT_SETTINGS.rateLimit, doc: 'signed requests per window and key; 0 turns the limit off' },
  browserRateLimit: {
    config: 'browserRateLimit',
    default: DEFAULT_SETTINGS.browserRateLimit,
    doc: 'challenge creations per window, key and client address; 0 turns the limit off',
  },
  rateLimitWindowMs: { config: 'rateLimitWindowMs', default: DEFAULT_SETTINGS.rateLimitWindowMs, doc: 'the window of both rate limits, in ms' },
} as const satisfies Record<string, CommandOption>

export type OptionName = keyof typeof COMMAND_OPTIONS

/** The names of the settings that have a flag, in the table's order. */
type Flagged = { [K in OptionName]: (typeof COMMAND_OPTIONS)[K] extends { flag: string } ? K : never }[OptionName]

/** What the command line gave for the flags read, by setting: a string, a list of them, or true. */
export type CommandLine<N extends Flagged = Flagged> = {
  [K in N]?: (typeof COMMAND_OPTIONS)[K] extends { multiple: true } ? string[] : (typeof COMMAND_OPTIONS)[K] extends { value: string } ? string : boolean
}

const entries = Object.entries(COMMAND_OPTIONS) as [OptionName, CommandOption][]

/** Every setting with a flag. */
export const FLAGGED = entries.filter(([, option]) => option.flag !== undefined).map(([name]) => name) as Flagged[]

/** The --config file's fields, as the table names them. */
export const CONFIG_FIELDS = entries.flatMap(([, option]) => (option.config === undefined ? [] : [option.config]))

/** A mistake on the command line: the command says it, points at --help and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/**
 * Reads `args` for the flags of `names` (by default every flag); a flag it does not know, or one
 * without its value, is a UsageError in Node's words, which name the culprit.
 */
export function readCommandLine<N extends Flagged = Flagged>(args: readonly string[], names: readonly N[] = FLAGGED as N[]): CommandLine<N> {
  const options: ParseArgsConfig['options'] = {}
  for (const name of names) {
    const option: CommandOption = COMMAND_OPTIONS[name]
    options[option.flag!] = { type: option.value ? 'string' : 'boolean', multiple: option.multiple ?? false }
  }
  let values: Record<string, unknown>
  try {
    ;({ values } = parseArgs({ args: [...args], options, strict: true, allowPositionals: false }))
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  return Object.fromEntries(
    names.flatMap((name) => (values[COMMAND_OPTIONS[name].flag] === undefined ? [] : [[name, values[COMMAND_OPTIONS[name].flag]]])),
  ) as CommandLine<N>
}

/** `--data DIR (or SERVICE_DATA), --in-memory, …`: the flags of `names`, for a message that lists them. */
export function flagsOf(names: readonly Flagged[]): string {
  return names
    .map((name) => {
      const { flag, value, env }: CommandOption = COMMAND_OPTIONS[name]
      return `--${flag}${value ? ` ${value}` : ''}${env ? ` (or ${env})` : ''}`
    })
    .join(', ')
}
