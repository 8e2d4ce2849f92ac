// How `service-auth-mock` (and `npm run service`, the same command) is configured: an optional
// JSON file (--config or SERVICE_CONFIG), the environment on top, and the command line's options
// on top of both, each setting named as the options table (options.ts) names it. Mistakes stop
// the start with a message that names the setting.
import { readFileSync } from 'node:fs'
import { decodeSecret, generateCredentials, type Credentials } from '../common/credentials.js'
import { checkedOrigin } from '../common/origins.js'
import { isPermission, type ApiKeyOptions, type Permission } from '../service/access/api-keys.js'
import type { ServiceOptions } from '../service/server.js'
import { DEFAULT_SETTINGS, type ServiceSettings } from '../service/settings.js'
import { COMMAND_OPTIONS, CONFIG_FIELDS, DEFAULT_PORT, type CommandLine } from './options.js'

export interface ServiceConfig {
  options: ServiceOptions & { port: number }
  /** Credentials made up because none were given; printed, since nobody else knows them. */
  generated: { key?: string; secret?: string }
}

/** The settings the file may give as numbers: the ones the knobs may change too. */
const NUMBER_SETTINGS = Object.keys(DEFAULT_SETTINGS) as (keyof ServiceSettings)[]
// Each field of ApiKeyOptions, tied to it by the compiler: a field the type gains and this list
// lacks would otherwise be refused in a config file as unknown, while startService takes it.
const KEY_FIELDS = Object.keys({ key: true, secret: true, allowedOrigins: true, permissions: true, app: true } satisfies Record<keyof ApiKeyOptions, true>)

const { port: PORT, config: CONFIG, baseUrl: BASE_URL, knobs: KNOBS, knobsOrigins: KNOBS_ORIGINS, allowedHosts: ALLOWED_HOSTS } = COMMAND_OPTIONS
const { apiKey: API_KEY, apiSecret: API_SECRET, allowedOrigins: ALLOWED_ORIGINS, clientAddressHeader: CLIENT_ADDRESS_HEADER } = COMMAND_OPTIONS

type Env = Record<string, string | undefined>

/** Who may reach the service besides its own pages and names: what --knobs-origin and --allowed-hosts add. */
export interface AccessOptions {
  knobsOrigins: string[]
  allowedHosts: string[]
}

/**
 * SERVICE_KNOBS_ORIGIN and SERVICE_ALLOWED_HOSTS (comma-separated), then the command line's
 * `--knobs-origin` and `--allowed-hosts` (each repeatable and comma-separated): each adds to the
 * list. `npm start` reads the same, for both of its servers.
 */
export function accessOptionsFrom(line: CommandLine<'knobsOrigins' | 'allowedHosts'>, env: Env): AccessOptions {
  const all = (variable: string | undefined, given: string[] | undefined) => [...list(variable), ...(given ?? []).flatMap(list)]
  // The origins are checked here, where it is known which of the two gave each.
  const knobsOrigins = [
    ...origins(list(env[KNOBS_ORIGINS.env]), KNOBS_ORIGINS.env),
    ...origins((line.knobsOrigins ?? []).flatMap(list), `--${KNOBS_ORIGINS.flag}`),
  ]
  return { knobsOrigins, allowedHosts: all(env[ALLOWED_HOSTS.env], line.allowedHosts) }
}

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

export interface LoadOptions {
  /** What the command line gave (its --port, --config, --base-url, and the origins and hosts it adds); each wins over its variable. */
  line?: CommandLine<'port' | 'config' | 'baseUrl' | 'knobsOrigins' | 'allowedHosts'>
  /**
   * Makes up the key and secret that neither the file nor the environment gives; a start with a
   * data directory passes the ones it remembers (rememberedCredentials).
   */
  generate?: () => Credentials
}

export function loadServiceConfig(
  env: Env,
  readFile = (path: string) => readFileSync(path, 'utf8'),
  { line = {}, generate = generateCredentials }: LoadOptions = {},
): ServiceConfig {
  const configPath = line.config ?? env[CONFIG.env]
  const file = configPath ? readConfigFile(configPath, readFile, line.config === undefined ? CONFIG.env : `--${CONFIG.flag}`) : {}
  const where = configPath ?? 'config'
  const options: ServiceConfig['options'] = { port: DEFAULT_PORT, keys: [] }

  onlyKnown(file, CONFIG_FIELDS, where)
  if (file[PORT.config] !== undefined) options.port = port(file[PORT.config], `${where}: ${PORT.config}`)
  if (file[BASE_URL.config] !== undefined) options.baseUrl = text(file[BASE_URL.config], `${where}: ${BASE_URL.config}`)
  if (file[KNOBS.config] !== undefined) options.knobs = flag(file[KNOBS.config], `${where}: ${KNOBS.config}`)
  if (file[KNOBS_ORIGINS.config] !== undefined) options.knobsOrigins = originList(file[KNOBS_ORIGINS.config], `${where}: ${KNOBS_ORIGINS.config}`)
  if (file[ALLOWED_HOSTS.config] !== undefined) options.allowedHosts = texts(file[ALLOWED_HOSTS.config], `${where}: ${ALLOWED_HOSTS.config}`)
  if (file[CLIENT_ADDRESS_HEADER.config] !== undefined)
    options.clientAddressHeader = text(file[CLIENT_ADDRESS_HEADER.config], `${where}: ${CLIENT_ADDRESS_HEADER.config}`)
  for (const name of NUMBER_SETTINGS) {
    const field = COMMAND_OPTIONS[name].config
    if (file[field] !== undefined) options[name] = integer(file[field], `${where}: ${field}`)
  }
  const keys = file[COMMAND_OPTIONS.keys.config]
  if (keys !== undefined) {
    if (!Array.isArray(keys)) throw new Error(`${where}: keys must be a list.`)
    options.keys = keys.map((entry, index) => apiKey(entry, `${where}: keys[${index}]`))
  }

  const envPort = env[PORT.env]
  if (envPort) options.port = port(Number(envPort), `${PORT.env} "${envPort}"`)
  if (env[BASE_URL.env]) options.baseUrl = env[BASE_URL.env]
  const envKnobs = env[KNOBS.env]
  if (envKnobs) options.knobs = switchVariable(envKnobs, KNOBS.env)
  if (env[CLIENT_ADDRESS_HEADER.env]) options.clientAddressHeader = env[CLIENT_ADDRESS_HEADER.env]
  if (line.port !== undefined) options.port = port(line.port === '' ? NaN : Number(line.port), `--${PORT.flag} "${line.port}"`)
  if (line.baseUrl !== undefined) options.baseUrl = line.baseUrl
  const added = accessOptionsFrom(line, env)
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
  const allowed = origins(list(env[ALLOWED_ORIGINS.env]), ALLOWED_ORIGINS.env)
  if (!env[API_KEY.env] && !env[API_SECRET.env] && keys.length > 0) {
    if (allowed.length > 0) throw new Error(`${ALLOWED_ORIGINS.env} applies to the ${API_KEY.env} key; the config file sets allowedOrigins per key.`)
    return {}
  }
  const made = generate()
  const key = env[API_KEY.env] || made.apiKey
  const envSecret = env[API_SECRET.env]
  const secret = envSecret ? checkedSecret(envSecret, API_SECRET.env) : made.apiSecret
  const index = keys.findIndex((entry) => entry.key === key)
  if (index >= 0) keys.splice(index, 1)
  keys.unshift({ key, secret, allowedOrigins: allowed })
  return { key: env[API_KEY.env] ? undefined : key, secret: env[API_SECRET.env] ? undefined : secret }
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
  const options: ApiKeyOptions = { key: text(entry.key, `${where}.key`), secret: checkedSecret(text(entry.secret, `${where}.secret`), `${where}.secret`) }
  if (entry.allowedOrigins !== undefined) options.allowedOrigins = originList(entry.allowedOrigins, `${where}.allowedOrigins`)
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

/** Each origin as a page's Origin header carries it (common/origins.ts), the list named `where`. */
function origins(values: string[], where: string): string[] {
  return values.map((value) => checkedOrigin(value, where))
}

/** A list of origins in the file, each named by its place in it. */
function originList(value: unknown, where: string): string[] {
  return texts(value, where).map((item, index) => checkedOrigin(item, `${where}[${index}]`))
}

/** The secret's text, as given, once it decodes as the service's would (decodeSecret); its value is never shown. */
function checkedSecret(value: string, where: string): string {
  try {
    decodeSecret(value)
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`)
  }
  return value
}

const SWITCH_VALUES = new Map([
  ['1', true],
  ['true', true],
  ['0', false],
  ['false', false],
])

/**
 * A switch's variable. Anything but its four values stops the start, rather than leaving the
 * switch as it was: SERVICE_KNOBS=off once left the knobs on, and they sign any challenge.
 */
function switchVariable(value: string, where: string): boolean {
  const on = SWITCH_VALUES.get(value.trim().toLowerCase())
  if (on === undefined) throw new Error(`${where} "${value}" must be 1 or true (on), or 0 or false (off).`)
  return on
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
