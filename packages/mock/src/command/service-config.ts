// How `service-auth-mock` (and `npm run service`, the same command) is configured: an optional
// JSON file (--config or SERVICE_CONFIG), the environment on top, and the command line's options
// on top of both. Mistakes stop the start with a message that names the setting.
import { readFileSync } from 'node:fs'
import type { ParseArgsConfig } from 'node:util'
import { generateCredentials, type Credentials } from '../common/credentials.js'
import { isPermission, type ApiKeyOptions, type Permission } from '../service/access/api-keys.js'
import type { ServiceOptions } from '../service/server.js'

export interface ServiceConfig {
  options: ServiceOptions & { port: number }
  /** Credentials made up because none were given; printed, since nobody else knows them. */
  generated: { key?: string; secret?: string }
}

export const DEFAULT_PORT = 8081

const NUMBER_SETTINGS = ['holdMs', 'challengeTtlMs', 'enrollmentTimeoutSeconds', 'rateLimit', 'browserRateLimit', 'rateLimitWindowMs'] as const
const FILE_FIELDS = ['port', 'baseUrl', 'knobs', 'knobsOrigins', 'allowedHosts', 'clientAddressHeader', 'keys', ...NUMBER_SETTINGS]
const KEY_FIELDS = ['key', 'secret', 'allowedOrigins', 'permissions', 'app']

type Env = Record<string, string | undefined>

/** Who may reach the service besides its own pages and names: what --knobs-origin and --allowed-hosts add. */
export interface AccessOptions {
  knobsOrigins: string[]
  allowedHosts: string[]
}

/** For parseArgs: `--knobs-origin` and `--allowed-hosts`, each repeatable and comma-separated. */
export const ACCESS_ARGS = {
  'knobs-origin': { type: 'string', multiple: true },
  'allowed-hosts': { type: 'string', multiple: true },
} as const satisfies ParseArgsConfig['options']

export const ACCESS_USAGE = '--knobs-origin ORIGIN (or SERVICE_KNOBS_ORIGIN), --allowed-hosts HOST (or SERVICE_ALLOWED_HOSTS)'

type AccessArgValues = { 'knobs-origin'?: string[]; 'allowed-hosts'?: string[] }

/**
 * SERVICE_KNOBS_ORIGIN and SERVICE_ALLOWED_HOSTS (comma-separated), then the command line's
 * `--knobs-origin` and `--allowed-hosts` (parsed with ACCESS_ARGS): each adds to the list.
 * `npm start` reads the same, for both of its servers.
 */
export function accessOptionsFrom(values: AccessArgValues, env: Env): AccessOptions {
  const all = (variable: string | undefined, given: string[] | undefined) => [...list(variable), ...(given ?? []).flatMap(list)]
  return { knobsOrigins: all(env.SERVICE_KNOBS_ORIGIN, values['knobs-origin']), allowedHosts: all(env.SERVICE_ALLOWED_HOSTS, values['allowed-hosts']) }
}

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

/** The settings the command line may give, as typed there; each wins over its variable. */
export interface CommandLineSettings {
  /** --port */
  port?: string
  /** --config */
  config?: string
  /** --base-url */
  baseUrl?: string
}

export interface LoadOptions {
  /** What the command line gave: its settings, and the origins and hosts it adds (ACCESS_ARGS). */
  line?: CommandLineSettings
  /** The command line's --knobs-origin and --allowed-hosts; the environment's variables are read here. */
  access?: AccessArgValues
  /**
   * Makes up the key and secret that neither the file nor the environment gives; a start with a
   * data directory passes the ones it remembers (rememberedCredentials).
   */
  generate?: () => Credentials
}

export function loadServiceConfig(
  env: Env,
  readFile = (path: string) => readFileSync(path, 'utf8'),
  { line = {}, access = {}, generate = generateCredentials }: LoadOptions = {},
): ServiceConfig {
  const configPath = line.config ?? env.SERVICE_CONFIG
  const file = configPath ? readConfigFile(configPath, readFile, line.config === undefined ? 'SERVICE_CONFIG' : '--config') : {}
  const where = configPath ?? 'config'
  const options: ServiceConfig['options'] = { port: DEFAULT_PORT, keys: [] }

  onlyKnown(file, FILE_FIELDS, where)
  if (file.port !== undefined) options.port = port(file.port, `${where}: port`)
  if (file.baseUrl !== undefined) options.baseUrl = text(file.baseUrl, `${where}: baseUrl`)
  if (file.knobs !== undefined) options.knobs = flag(file.knobs, `${where}: knobs`)
  if (file.knobsOrigins !== undefined) options.knobsOrigins = texts(file.knobsOrigins, `${where}: knobsOrigins`)
  if (file.allowedHosts !== undefined) options.allowedHosts = texts(file.allowedHosts, `${where}: allowedHosts`)
  if (file.clientAddressHeader !== undefined) options.clientAddressHeader = text(file.clientAddressHeader, `${where}: clientAddressHeader`)
  for (const name of NUMBER_SETTINGS) {
    if (file[name] !== undefined) options[name] = integer(file[name], `${where}: ${name}`)
  }
  if (file.keys !== undefined) {
    if (!Array.isArray(file.keys)) throw new Error(`${where}: keys must be a list.`)
    options.keys = file.keys.map((entry, index) => apiKey(entry, `${where}: keys[${index}]`))
  }

  if (env.SERVICE_PORT) options.port = port(Number(env.SERVICE_PORT), `SERVICE_PORT "${env.SERVICE_PORT}"`)
  if (env.SERVICE_BASE_URL) options.baseUrl = env.SERVICE_BASE_URL
  if (env.SERVICE_KNOBS === '1') options.knobs = true
  if (env.SERVICE_KNOBS === '0') options.knobs = false
  if (env.SERVICE_CLIENT_ADDRESS_HEADER) options.clientAddressHeader = env.SERVICE_CLIENT_ADDRESS_HEADER
  if (line.port !== undefined) options.port = port(line.port === '' ? NaN : Number(line.port), `--port "${line.port}"`)
  if (line.baseUrl !== undefined) options.baseUrl = line.baseUrl
  const added = accessOptionsFrom(access, env)
  options.knobsOrigins = [...(options.knobsOrigins ?? []), ...added.knobsOrigins]
  options.allowedHosts = [...(options.allowedHosts ?? []), ...added.allowedHosts]
  const generated = addEnvironmentKey(env, options.keys, generate)
  return { options, generated }
}

/**
 * The key of SERVICE_API_KEY and SERVICE_API_SECRET (the halves not given are generated). It is
 * added when either is set or the file names no key; with the same key as the file, it wins.
 */
function addEnvironmentKey(env: Env, keys: ApiKeyOptions[], generate: () => Credentials): ServiceConfig['generated'] {
  const origins = (env.SERVICE_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  if (!env.SERVICE_API_KEY && !env.SERVICE_API_SECRET && keys.length > 0) {
    if (origins.length > 0) throw new Error('SERVICE_ALLOWED_ORIGINS applies to the SERVICE_API_KEY key; the config file sets allowedOrigins per key.')
    return {}
  }
  const made = generate()
  const key = env.SERVICE_API_KEY || made.apiKey
  const secret = env.SERVICE_API_SECRET || made.apiSecret
  const index = keys.findIndex((entry) => entry.key === key)
  if (index >= 0) keys.splice(index, 1)
  keys.unshift({ key, secret, allowedOrigins: origins })
  return { key: env.SERVICE_API_KEY ? undefined : key, secret: env.SERVICE_API_SECRET ? undefined : secret }
}

function readConfigFile(path: string, readFile: (path: string) => string, named: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(readFile(path))
  } catch (error) {
    throw new Error(`${named} ${path} cannot be read as JSON: ${error instanceof Error ? error.message : error}`)
  }
  return object(value, path)
}

function apiKey(value: unknown, where: string): ApiKeyOptions {
  const entry = object(value, where)
  onlyKnown(entry, KEY_FIELDS, where)
  const options: ApiKeyOptions = { key: text(entry.key, `${where}.key`), secret: text(entry.secret, `${where}.secret`) }
  if (entry.allowedOrigins !== undefined) options.allowedOrigins = texts(entry.allowedOrigins, `${where}.allowedOrigins`)
  if (entry.permissions !== undefined) {
    const permissions = texts(entry.permissions, `${where}.permissions`)
    const unknown = permissions.filter((permission) => !isPermission(permission))
    if (unknown.length > 0) throw new Error(`${where}.permissions: unknown ${unknown.join(', ')}.`)
    options.permissions = permissions as Permission[]
  }
  if (entry.app !== undefined) options.app = text(entry.app, `${where}.app`)
  return options
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where} must be a JSON object.`)
  return value as Record<string, unknown>
}

function onlyKnown(value: Record<string, unknown>, known: readonly string[], where: string): void {
  const unknown = Object.keys(value).filter((name) => !known.includes(name))
  if (unknown.length > 0) throw new Error(`${where}: unknown ${unknown.join(', ')} (known: ${known.join(', ')}).`)
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') throw new Error(`${where} must be a non-empty string.`)
  return value
}

function texts(value: unknown, where: string): string[] {
  if (!Array.isArray(value)) throw new Error(`${where} must be a list of strings.`)
  return value.map((item, index) => text(item, `${where}[${index}]`))
}

function flag(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') throw new Error(`${where} must be true or false.`)
  return value
}

function integer(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`${where} must be an integer.`)
  return value
}

function port(value: unknown, where: string): number {
  const number = integer(value, where)
  if (number < 0 || number > 65535) throw new Error(`${where} must be a port number from 0 to 65535.`)
  return number
}
