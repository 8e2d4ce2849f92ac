// Every answer the mock gives these tests, checked against packages/mock/openapi.yaml: the
// status is one the operation lists, the content type is one of its media types, the body fits
// the schema, and the headers it requires are there and well formed. The check sits on the
// server's side, on Node's ServerResponse, so it sees every answer whoever asked: fetch, the
// official client, node:http, a raw socket. Answers a fault knob forced are whatever the test
// asked for, garbage on purpose, and are left alone (server.ts marks them).
import { readFileSync } from 'node:fs'
import { ServerResponse, type OutgoingHttpHeaders } from 'node:http'
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, afterEach } from 'vitest'
import { parse } from 'yaml'
import { forcedByKnob } from '../../src/knobs/fault-injection.js'

type Json = Record<string, any>

export const CONTRACT_URL = new URL('../../openapi.yaml', import.meta.url)
/** The document as parsed, YAML aliases resolved. */
export const contract: Json = parse(readFileSync(CONTRACT_URL, 'utf8'), { maxAliasCount: -1 })

/** An answer as it left the server. */
export interface Answer {
  method: string
  /** The request target as it arrived: path and query. */
  target: string
  status: number
  /** By lower-case name. */
  headers: Record<string, string>
  body: Buffer
  /** The request had no Host header. */
  withoutHost?: boolean
}

// The document's schemas under one id, so a schema taken from anywhere in it resolves its $refs.
const SCHEMAS_ID = 'openapi.json'
const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true })
addFormats(ajv)
ajv.addSchema({ $id: SCHEMAS_ID, $defs: withSchemaRefs(contract.components.schemas) })
const compiled = new WeakMap<object, ValidateFunction>()

/** `#/components/schemas/X` as `openapi.json#/$defs/X`, throughout a copy of `value`. */
function withSchemaRefs(value: unknown): any {
  if (Array.isArray(value)) return value.map(withSchemaRefs)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [
      name,
      name === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', `${SCHEMAS_ID}#/$defs/`) : withSchemaRefs(inner),
    ]),
  )
}

/** A schema of the document, compiled once. */
export function validatorOf(schema: object): ValidateFunction {
  let validate = compiled.get(schema)
  if (!validate) compiled.set(schema, (validate = ajv.compile(withSchemaRefs(schema))))
  return validate
}

/** A `$ref` within the document (`#/components/...`), followed. */
function resolved(node: Json): Json {
  let current = node
  while (typeof current?.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((parent: Json, name: string) => parent?.[name.replace(/~1/g, '/').replace(/~0/g, '~')], contract)
    if (current === undefined) throw new Error(`openapi.yaml: ${node.$ref} leads nowhere.`)
  }
  return current
}

// The path templates as patterns, concrete paths first: /identities/enroll before /identities/{identifier}.
const PATHS = Object.keys(contract.paths)
  .map((template) => ({
    template,
    params: (template.match(/\{[^}]+\}/g) ?? []).length,
    pattern: new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$'),
  }))
  .sort((a, b) => a.params - b.params)

/** The document's path template of a request path, if it has one. */
export function pathTemplateOf(path: string): string | undefined {
  return PATHS.find(({ pattern }) => pattern.test(path))?.template
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** The operations of a path item, by upper-case method. */
export function operationsOf(template: string): Record<string, Json> {
  const item = contract.paths[template]
  return Object.fromEntries(METHODS.filter((method) => item[method]).map((method) => [method.toUpperCase(), item[method]]))
}

/**
 * What an answer that is not an operation's may be (openapi.yaml, "Answers that are not listed
 * per operation"): a target that is not a plain path or no Host (400), a foreign Host (403), an
 * unknown path or a bad escape (404), a method the path does not have (405), a body too large
 * (413), and a change its data directory cannot store (507).
 */
const UNLISTED: Record<number, string> = {
  400: 'ValidationProblem',
  403: 'Problem403',
  404: 'Problem404',
  405: 'Problem405',
  413: 'Problem413',
  507: 'Problem507',
}

/** The unlisted answers any operation that changes state may give besides its own. */
const OF_ANY_CHANGE = new Set([507])
const CHANGES_STATE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

const mediaTypeOf = (contentType: string | undefined) => contentType?.split(';')[0]?.trim().toLowerCase()
const isJson = (mediaType: string | undefined) => mediaType === 'application/json' || /^application\/[\w.-]+\+json$/.test(mediaType ?? '')
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Why the answer breaks the contract; empty when it keeps it. */
export function violationsOf(answer: Answer): string[] {
  const path = answer.target.replace(/[?#].*$/s, '').replace(/^\/{2,}/, '/')
  // Refused before routing, whatever the path says.
  const plainPath = path.startsWith('/') && !path.split('/').some((segment) => segment === '.' || segment === '..')
  if (!plainPath || answer.withoutHost) return unlistedViolations(answer, false)
  const template = pathTemplateOf(path)
  const operation = template === undefined ? undefined : operationsOf(template)[answer.method]
  if (!operation) return unlistedViolations(answer, template !== undefined)
  const response = operation.responses[String(answer.status)]
  if (!response && OF_ANY_CHANGE.has(answer.status) && CHANGES_STATE.has(answer.method)) return unlistedViolations(answer, true)
  if (!response) {
    const listed = Object.keys(operation.responses).join(', ')
    return [`${answer.status} is not an answer of ${operation.operationId ?? `${answer.method} ${template}`} (${listed})`]
  }
  return responseViolations(answer, resolved(response))
}

function unlistedViolations(answer: Answer, knownPath: boolean): string[] {
  const schema = UNLISTED[answer.status]
  if (!schema || ((answer.status === 405 || answer.status === 507) && !knownPath))
    return [`${answer.status} is not an answer the document lists for ${knownPath ? 'this method' : 'this path'}`]
  const response = {
    headers: {
      'Cache-Control': contract.components.headers.CacheControl,
      ...(answer.status === 405 && { Allow: { required: true, schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' } } }),
    },
    content: { 'application/problem+json': { schema: contract.components.schemas[schema] } },
  }
  return responseViolations(answer, response)
}

function responseViolations(answer: Answer, response: Json): string[] {
  const violations: string[] = []
  for (const [name, reference] of Object.entries<Json>(response.headers ?? {})) {
    const header = resolved(reference)
    const value = answer.headers[name.toLowerCase()]
    if (value === undefined) {
      if (header.required) violations.push(`header ${name} is missing`)
    } else if (!validatorOf(header.schema)(value)) {
      violations.push(explained(`header ${name} ${JSON.stringify(value)}`, validatorOf(header.schema)))
    }
  }
  const contentType = answer.headers['content-type']
  if (!response.content) {
    if (answer.body.length > 0 || contentType !== undefined)
      violations.push(`there must be no body, but there is ${contentType ?? 'one'} of ${answer.body.length} bytes`)
    return violations
  }
  const mediaType = mediaTypeOf(contentType)
  const media = mediaType === undefined ? undefined : response.content[mediaType]
  if (!media) return [...violations, `content type ${contentType ?? '(none)'} is not ${Object.keys(response.content).join(' or ')}`]
  if (isJson(mediaType)) {
    let body: unknown
    try {
      body = JSON.parse(answer.body.toString('utf8'))
    } catch {
      return [...violations, `the body is not JSON: ${answer.body.toString('utf8').slice(0, 100)}`]
    }
    const validate = validatorOf(resolved(media.schema))
    if (!validate(body)) violations.push(explained('body', validate))
  } else if (mediaType === 'image/png' && !answer.body.subarray(0, 8).equals(PNG_SIGNATURE)) {
    violations.push('the body is not a PNG')
  }
  return violations
}

/** `body/tokens/0 must have required property 'name'; ...` */
const explained = (what: string, validate: ValidateFunction) =>
  (validate.errors ?? []).map((error) => `${what}${error.instancePath} ${error.message}`).join('; ')

// What the tests of this process broke, until an afterEach reports it; and how many answers were checked.
const broken: string[] = []
const counts = { checked: 0, exempt: 0 }

/** The violations recorded since last asked, which are then forgotten: for a test that breaks the contract on purpose. */
export const takeViolations = (): string[] => broken.splice(0)

/** Answers checked and answers exempt (forced by a knob) in this process so far. */
export const answerCounts = (): Readonly<typeof counts> => ({ ...counts })

// The patch of ServerResponse is made once per process and outlives this module, which a test
// runner without isolation loads again for each file: what it captured lives on the answer
// (SENT), and it hands the answer to the recorder of the file now running (RECORDER).
const SENT = Symbol.for('service-auth mock tests: the answer as sent')
const RECORDER = Symbol.for('service-auth mock tests: the recorder of answers')
const PATCHED = Symbol.for('service-auth mock tests: answers checked against openapi.yaml')

interface Sent {
  headers: OutgoingHttpHeaders
  chunks: Buffer[]
  /** Inside end(), whose chunk is taken already, should it write through write(). */
  ending: boolean
  recorded: boolean
}
type Watched = ServerResponse & { [SENT]?: Sent }
type Recorder = (res: ServerResponse, sent: Sent) => void
const global = globalThis as typeof globalThis & { [RECORDER]?: Recorder }

function record(res: ServerResponse, sent: Sent): void {
  if (forcedByKnob.has(res)) {
    counts.exempt += 1
    return
  }
  const headers: Record<string, string> = {}
  // writeHead's own headers do not always show in getHeaders(): both, the later ones winning.
  for (const [name, value] of [...Object.entries(sent.headers), ...Object.entries(res.getHeaders())]) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  const {
    method = '',
    url: target = '/',
    headers: { host },
  } = res.req
  const answer: Answer = { method, target, status: res.statusCode, headers, body: Buffer.concat(sent.chunks), withoutHost: host === undefined }
  counts.checked += 1
  let violations: string[]
  try {
    violations = violationsOf(answer)
  } catch (error) {
    // Thrown here, it would reach the server's handler, which has answered already and would swallow it.
    violations = [`the check itself failed: ${error instanceof Error ? error.message : String(error)}`]
  }
  if (violations.length > 0) broken.push(`${answer.method} ${answer.target} → ${answer.status}: ${violations.join('; ')}`)
}

/** Captures what every ServerResponse of the process sends, and hands it over once it has ended. */
function patchServerResponse(): void {
  const prototype = ServerResponse.prototype as Watched & { [PATCHED]?: true }
  if (prototype[PATCHED]) return
  prototype[PATCHED] = true
  const sentOf = (res: Watched): Sent => (res[SENT] ??= { headers: {}, chunks: [], ending: false, recorded: false })
  const asBuffer = (chunk: unknown, encoding: unknown): Buffer | undefined =>
    typeof chunk === 'string'
      ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk)
        : undefined
  const { writeHead, write, end } = prototype
  prototype.writeHead = function (this: Watched, ...args: any[]) {
    const headers = args.find((arg, index) => index > 0 && typeof arg === 'object' && arg !== null && !Array.isArray(arg))
    if (headers) Object.assign(sentOf(this).headers, headers)
    return (writeHead as (...inner: any[]) => ServerResponse).apply(this, args)
  } as typeof writeHead
  prototype.write = function (this: Watched, chunk: unknown, ...rest: any[]) {
    const bytes = asBuffer(chunk, rest[0])
    if (bytes && !sentOf(this).ending) sentOf(this).chunks.push(bytes)
    return (write as (...inner: any[]) => boolean).apply(this, [chunk, ...rest])
  } as typeof write
  prototype.end = function (this: Watched, ...args: any[]) {
    const sent = sentOf(this)
    const bytes = typeof args[0] === 'function' ? undefined : asBuffer(args[0], args[1])
    if (bytes && !sent.recorded) sent.chunks.push(bytes)
    sent.ending = true
    try {
      return (end as (...inner: any[]) => ServerResponse).apply(this, args)
    } finally {
      sent.ending = false
      if (!sent.recorded) {
        sent.recorded = true
        global[RECORDER]?.(this, sent)
      }
    }
  } as typeof end
}

/**
 * Checks every answer of every server in this process from now on, and fails the test during
 * which an answer broke the contract (in afterEach; in afterAll for answers after the last test).
 * Call it where the suite is declared; more than once is harmless.
 */
export function checkAnswersAgainstContract(): void {
  patchServerResponse()
  global[RECORDER] = record
  const report = () => {
    const violations = takeViolations()
    if (violations.length > 0) {
      throw new Error(`${violations.length} answer(s) broke the contract (packages/mock/openapi.yaml):\n${violations.join('\n')}`)
    }
  }
  afterEach(report)
  afterAll(report)
}
