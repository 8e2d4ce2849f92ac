// `service-auth-mock`: its options (the table's, read over the environment and the config file),
// and what it prints once the service listens. No side effects here: cli.ts runs it.
import type { Credentials } from '../common/credentials.js'
import { loadServiceConfig, type ServiceConfig } from './service-config.js'
import { stateOptionsFrom, type StateOptions } from './state-options.js'
import type { ServiceOptions } from '../service/server.js'
import { COMMAND_OPTIONS, readCommandLine, UsageError } from './options.js'
import {
  DEFAULT_TEST_IDENTITY,
  EXPIRES_AFTER_MS,
  SIGN_AFTER_MS,
  TEST_KEYS,
  TEST_SECRET,
  UNAVAILABLE_RETRY_AFTER_S,
} from '../service/test-keys/published-keys.js'

export type MockConfig = ServiceConfig & { options: ServiceOptions & { port: number } }

/**
 * A start: where its state is kept, and its configuration, made once that state is open, since a
 * data directory remembers the key and secret an earlier start made up (`generate`).
 */
export type MockCommand = { help: true } | { help: false; state: StateOptions; configure(generate?: () => Credentials): MockConfig }

type Env = Record<string, string | undefined>

/** The service's options from the arguments after `mock`, over the environment and the config file. */
export function readMockCommand(args: string[], env: Env, readFile?: (path: string) => string): MockCommand {
  const line = readCommandLine(args)
  if (line.help) return { help: true }
  if (line.noTestKeys && line.testIdentity !== undefined)
    throw new UsageError('--test-identity names who signs with the test keys; --no-test-keys turns them off. Choose one.')
  let state: StateOptions
  try {
    state = stateOptionsFrom(line, env)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const configure = (generate?: () => Credentials): MockConfig => {
    const config = loadServiceConfig(env, readFile, { line, generate })
    // On unless asked otherwise: the command is for trying and testing a sign-in. (The knobs'
    // flag is --no-knobs: `line.knobs` is true when it was given.)
    config.options.knobs = line.knobs ? false : (config.options.knobs ?? COMMAND_OPTIONS.knobs.default)
    config.options.testKeys = line.noTestKeys ? false : { identity: line.testIdentity ?? COMMAND_OPTIONS.testIdentity.default }
    return config
  }
  // A mistake in the settings shows now, before any data directory is opened. A key and secret
  // it makes up here are thrown away: the start's own are made, or remembered, once the data
  // directory is open (command-line.ts).
  configure()
  return { help: false, state, configure }
}

/** What the service is, as it prints it on start: the service, the credentials, what to paste where. */
export interface StartedService {
  /** Where it listens. */
  url: string
  settings: { rateLimit: number; browserRateLimit: number; rateLimitWindowMs: number; enrollmentTimeoutSeconds: number }
}

/**
 * The lines printed once the service listens; the markup and the three environment lines are each
 * a line to copy whole. `kept`: the made-up key and secret are the ones the state kept (a data
 * directory's since its first start, or an import's), not new: a page and a controller set up
 * with them before still work.
 */
export function startLines({ options, generated }: ServiceConfig, service: StartedService, { kept = false } = {}): string[] {
  const made = kept ? 'kept with the state' : 'generated'
  const publicUrl = options.baseUrl?.replace(/\/+$/, '') ?? service.url
  const lines = [`Service: ${service.url}${options.baseUrl ? ` (signed requests name ${publicUrl})` : ''}`]
  for (const key of options.keys) {
    const origins = key.allowedOrigins?.length ? key.allowedOrigins.join(', ') : 'any'
    const permissions = key.permissions ? key.permissions.join(', ') : 'all'
    lines.push(`API key${key.key === generated.key ? ` (${made})` : ''}: ${key.key}  origins: ${origins}  permissions: ${permissions}`)
  }
  // The environment's key is always the first. Only a secret made up here is printed: one from
  // the environment or a file stays out of the terminal (and its scrollback).
  const { key, secret } = options.keys[0]!
  if (generated.secret) lines.push(`API secret of ${key} (${made}, Base64): ${generated.secret}`)
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
