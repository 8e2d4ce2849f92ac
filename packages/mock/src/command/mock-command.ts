// `service-auth-mock`: its options (read over the environment and the config file), its help,
// and what it prints once the service listens. No side effects here: cli.ts runs it.
import { parseArgs } from 'node:util'
import type { Credentials } from '../common/credentials.js'
import { loadServiceConfig, type ServiceConfig } from './service-config.js'
import { stateOptionsFrom, type StateOptions } from './state-options.js'
import type { ServiceOptions } from '../service/server.js'
import {
  DEFAULT_TEST_IDENTITY,
  EXPIRES_AFTER_MS,
  SIGN_AFTER_MS,
  TEST_KEYS,
  TEST_SECRET,
  UNAVAILABLE_RETRY_AFTER_S,
} from '../service/test-keys/published-keys.js'

interface OptionSpec {
  /** The placeholder of its value in the help; a flag has none. */
  value?: string
  /** May be given more than once. */
  multiple?: boolean
  help: string
}

/**
 * Every option of `service-auth-mock`, in the order --help lists them: an option is one entry
 * here and one line in readMockCommand.
 */
export const MOCK_OPTIONS = {
  port: { value: 'N', help: 'the port on 127.0.0.1 (default 8081, or SERVICE_PORT); 0 picks a free one' },
  config: { value: 'FILE', help: 'a JSON file with keys and settings (as SERVICE_CONFIG)' },
  'base-url': { value: 'URL', help: 'the public base URL, when a proxy stands in front (as SERVICE_BASE_URL)' },
  data: { value: 'DIR', help: 'where the state is kept (or SERVICE_DATA); default .service-auth in the working directory' },
  'in-memory': { help: 'keep nothing: every start is a fresh one' },
  export: { value: 'FILE', help: "write the data directory's state to FILE as JSON, and stop" },
  import: { value: 'FILE', help: 'seed a fresh service (a new data directory, or --in-memory) from such a file' },
  'knobs-origin': { value: 'ORIGIN', multiple: true, help: 'another origin whose pages may use the knobs (repeatable; or SERVICE_KNOBS_ORIGIN)' },
  'allowed-hosts': { value: 'HOST', multiple: true, help: 'another host name the service answers to (repeatable; or SERVICE_ALLOWED_HOSTS)' },
  'test-identity': { value: 'ID', help: `who signs the test-signs codes (default ${DEFAULT_TEST_IDENTITY})` },
  'no-test-keys': { help: 'without the test keys' },
  'no-knobs': { help: 'without the /__knobs/ test endpoints' },
  help: { help: 'this help' },
} satisfies Record<string, OptionSpec>

/** A mistake on the command line: the CLI says it, points at --help and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export type MockConfig = ServiceConfig & { options: ServiceOptions & { port: number } }

/**
 * A start: where its state is kept, and its configuration, made once that state is open, since a
 * data directory remembers the key and secret an earlier start made up (`generate`).
 */
export type MockCommand = { help: true } | { help: false; state: StateOptions; configure(generate?: () => Credentials): MockConfig }

type Env = Record<string, string | undefined>

/** The service's options from the arguments after `mock`, over the environment and the config file. */
export function readMockCommand(args: string[], env: Env, readFile?: (path: string) => string): MockCommand {
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>
  try {
    ;({ values } = parseArgs({
      args,
      options: Object.fromEntries(
        Object.entries(MOCK_OPTIONS).map(
          ([name, spec]: [string, OptionSpec]) => [name, { type: spec.value ? 'string' : 'boolean', multiple: spec.multiple ?? false }] as const,
        ),
      ),
      strict: true,
      allowPositionals: false,
    }))
  } catch (error) {
    // Node's own wording ("Unknown option '--prot'"), which names the culprit.
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  if (values.help) return { help: true }
  const text = (name: keyof typeof MOCK_OPTIONS) => values[name] as string | undefined
  if (values['no-test-keys'] && text('test-identity') !== undefined)
    throw new UsageError('--test-identity names who signs with the test keys; --no-test-keys turns them off. Choose one.')

  const list = (name: keyof typeof MOCK_OPTIONS) => values[name] as string[] | undefined
  let state: StateOptions
  try {
    state = stateOptionsFrom(
      { data: text('data'), 'in-memory': values['in-memory'] as boolean | undefined, export: text('export'), import: text('import') },
      env,
    )
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const configure = (generate?: () => Credentials): MockConfig => {
    const line = { port: text('port'), config: text('config'), baseUrl: text('base-url') }
    const access = { 'knobs-origin': list('knobs-origin'), 'allowed-hosts': list('allowed-hosts') }
    const config = loadServiceConfig(env, readFile, { line, access, generate })
    // On unless asked otherwise: the command is for trying and testing a sign-in.
    config.options.knobs = values['no-knobs'] ? false : (config.options.knobs ?? true)
    config.options.testKeys = values['no-test-keys'] ? false : { identity: text('test-identity') ?? DEFAULT_TEST_IDENTITY }
    return config
  }
  // A mistake in the settings shows now, before any data directory is opened. A key and secret
  // it makes up here are thrown away: the start's own are made, or remembered, once the data
  // directory is open (command-line.ts).
  configure()
  return { help: false, state, configure }
}

export function mockUsage(): string {
  const width = Math.max(...Object.entries(MOCK_OPTIONS).map(([name, spec]: [string, OptionSpec]) => name.length + (spec.value ? spec.value.length + 1 : 0)))
  const lines = Object.entries(MOCK_OPTIONS).map(
    ([name, spec]: [string, OptionSpec]) => `  --${(name + (spec.value ? ' ' + spec.value : '')).padEnd(width)}  ${spec.help}`,
  )
  return `Usage: service-auth-mock [options]

Starts the mock sign-in service on 127.0.0.1: the whole service interface, its state kept in a
data directory, with the /__knobs/ test endpoints and the test keys (test-signs, test-expires,
test-unavailable).

Options:
${lines.join('\n')}

service-auth-mock check-controller --help: check your controller against a running mock.

Environment: SERVICE_PORT, SERVICE_CONFIG, SERVICE_BASE_URL, SERVICE_API_KEY, SERVICE_API_SECRET,
SERVICE_ALLOWED_ORIGINS, SERVICE_KNOBS (0 or 1), SERVICE_DATA, SERVICE_KNOBS_ORIGIN,
SERVICE_ALLOWED_HOSTS, SERVICE_CLIENT_ADDRESS_HEADER. Options win over variables, variables over the file.`
}

/** What the service is, as it prints it on start: the service, the credentials, what to paste where. */
export interface StartedService {
  /** Where it listens. */
  url: string
  settings: { rateLimit: number; browserRateLimit: number; rateLimitWindowMs: number; enrollmentTimeoutSeconds: number }
}

/** The lines printed once the service listens; the markup and the three environment lines are each a line to copy whole. */
export function startLines({ options, generated }: ServiceConfig, service: StartedService): string[] {
  const publicUrl = options.baseUrl?.replace(/\/+$/, '') ?? service.url
  const lines = [`Service: ${service.url}${options.baseUrl ? ` (signed requests name ${publicUrl})` : ''}`]
  for (const key of options.keys) {
    const origins = key.allowedOrigins?.length ? key.allowedOrigins.join(', ') : 'any'
    const permissions = key.permissions ? key.permissions.join(', ') : 'all'
    lines.push(`API key${key.key === generated.key ? ' (generated)' : ''}: ${key.key}  origins: ${origins}  permissions: ${permissions}`)
  }
  // The environment's key is always the first. Only a secret made up here is printed: one from
  // the environment or a file stays out of the terminal (and its scrollback).
  const { key, secret } = options.keys[0]!
  if (generated.secret) lines.push(`API secret of ${key} (generated, Base64): ${generated.secret}`)
  lines.push(
    "Paste into your login page (with the script and stylesheet, see service-auth's README):",
    `<div data-service-auth data-service-key="${escapeAttribute(key)}" data-service-auth-url="/auth/controller" data-service-api="${escapeAttribute(publicUrl)}"></div>`,
    'Your controller reads:',
    `SERVICE_URL=${publicUrl}`,
    `SERVICE_KEY=${key}`,
    generated.secret ? `SERVICE_SECRET=${secret}` : `SERVICE_SECRET=  (the secret configured for ${key}; not printed)`,
  )
  if (options.testKeys) {
    const identity = options.testKeys === true ? DEFAULT_TEST_IDENTITY : (options.testKeys.identity ?? DEFAULT_TEST_IDENTITY)
    const { signs, expires, unavailable } = TEST_KEYS
    lines.push(
      `Test keys, each with the secret ${TEST_SECRET}: ${signs} (${identity}'s phone signs each code ${SIGN_AFTER_MS / 1000} s after its first poll), ` +
        `${expires} (codes expire after ${EXPIRES_AFTER_MS / 1000} s), ${unavailable} (503, Retry-After: ${UNAVAILABLE_RETRY_AFTER_S})`,
    )
  }
  const { rateLimit, browserRateLimit, rateLimitWindowMs, enrollmentTimeoutSeconds } = service.settings
  const per = (limit: number, what: string) => (limit === 0 ? 'off' : `${limit} ${what} per ${rateLimitWindowMs / 1000} s`)
  lines.push(
    `Rate limits: ${per(rateLimit, 'signed requests per key')}; ${per(browserRateLimit, 'challenge creations per key and client address')}; enrollment timeout: ${enrollmentTimeoutSeconds} s`,
    `Knobs: ${options.knobs ? `${service.url}/__knobs/` : 'off'}`,
    'Ctrl-C stops it.',
  )
  return lines
}

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
