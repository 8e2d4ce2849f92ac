// @vitest-environment node
// The contract itself: openapi.yaml is valid OpenAPI 3.1 and names every route of the mock and
// no other; the check of every answer against it (contract.ts, which every file here runs)
// fails a wrong answer, and leaves alone only what a fault knob forced.
import { createServer } from 'node:http'
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { closeServer, listen, matchRoute, type Route } from '@service-auth/http'
import { API_ROUTES } from '../../src/service/api-routes.js'
import { KNOB_ROUTES } from '../../src/knobs/knob-routes.js'
import { SETTING_RANGES } from '../../src/service/settings.js'
import { answerCounts, contract, operationsOf, takeViolations, validatorOf, violationsOf, type Answer } from './contract.js'
import { useService } from './helpers.js'

const service = useService()

describe('the document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator()
    const result = await validator.validate(contract)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('has only schemas that compile strictly: an unknown keyword is a typo', () => {
    const schemas: object[] = Object.values(contract.components.schemas)
    const collect = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return
      for (const [name, value] of Object.entries(node)) {
        if (name === 'schema' && typeof value === 'object' && value !== null) schemas.push(value)
        else collect(value)
      }
    }
    collect(contract.paths)
    collect(contract.components.headers)
    collect(contract.components.parameters)
    collect(contract.components.responses)
    expect(schemas.length).toBeGreaterThan(100)
    for (const schema of schemas) expect(() => validatorOf(schema), JSON.stringify(schema).slice(0, 200)).not.toThrow()
  })

  it('names every route and method the mock serves, and no other', () => {
    const routed = new Set<string>()
    const served: [readonly (Route<unknown> & { browserFacing?: boolean })[], string][] = [
      [API_ROUTES, '/v1/'],
      [KNOB_ROUTES, '/__knobs/'],
    ]
    let methods = 0
    for (const [routes, prefix] of served) {
      methods += routes.reduce((sum, route) => sum + Object.keys(route.methods).length, 0)
      for (const template of Object.keys(contract.paths).filter((path) => path.startsWith(prefix))) {
        const match = matchRoute(routes, template.replace(/\{[^}]+\}/g, 'x'))
        expect(match, template).toBeDefined()
        const { route } = match!
        for (const method of Object.keys(operationsOf(template))) {
          // Preflights are answered before routing: by every browser-facing route, and anywhere under /__knobs/.
          if (method === 'OPTIONS') {
            expect(prefix === '/__knobs/' || route.browserFacing, `OPTIONS ${template}`).toBe(true)
            continue
          }
          expect(route.methods[method], `${method} ${template}`).toBeDefined()
          routed.add(`${prefix} ${routes.indexOf(route)} ${method}`)
        }
        if (route.browserFacing) expect(operationsOf(template).OPTIONS, `OPTIONS ${template}`).toBeDefined()
      }
    }
    // Each documented operation is a different route and method, and there are as many as the mock serves.
    expect(routed.size).toBe(methods)
  })

  it('gives /__knobs/config the range of each setting as SETTING_RANGES has it, asked and answered, and no other setting: the one table the service and the knob check with', () => {
    const { properties } = operationsOf('/__knobs/config').POST.requestBody.content['application/json'].schema
    const ranges = Object.entries(SETTING_RANGES).map(([name, { min, max }]) => [name, { type: 'integer', minimum: min, maximum: max }])
    expect(properties).toEqual(Object.fromEntries(ranges))
    // And the settings it answers with (GET and POST), in the same ranges.
    expect(contract.components.schemas.KnobSettings.properties).toEqual(Object.fromEntries(ranges))
  })

  it("gives each knob's line in the index (GET /__knobs/) as its operation's summary here: one text, the route table's", () => {
    for (const { path, methods } of KNOB_ROUTES) {
      for (const [method, knob] of Object.entries(methods)) expect(operationsOf(path)[method]?.summary, `${method} ${path}`).toBe(knob!.doc)
    }
  })
})

const IDENTITY = {
  id: '0b6a3f0e-6f7e-4a53-9b5e-3a5d2f0c8e11',
  createdAt: '2025-01-31T12:00:00.000+00:00',
  locked: false,
  identifier: 'ada@example.com',
  nickname: null,
  label: 'ada@example.com',
  role: 'ROLE_USER',
  tokens: [],
  sessions: [],
}
const PROBLEM_HEADERS = { 'content-type': 'application/problem+json', 'cache-control': 'no-store' }
const problem = (status: number, title: string, extra: object = {}) =>
  Buffer.from(
    JSON.stringify({
      type: `https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Status/${status}`,
      title,
      status,
      detail: 'Why.',
      instance: '/v1/entity/identities/ada',
      ...extra,
    }),
  )

/** GET /v1/entity/identities/ada answered with the identity, as the mock answers it; `changes` over it. */
const answer = (changes: Partial<Answer> = {}): Answer => ({
  method: 'GET',
  target: '/v1/entity/identities/ada',
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: Buffer.from(JSON.stringify(IDENTITY)),
  ...changes,
})
const identityWith = (changes: object) => Buffer.from(JSON.stringify({ ...IDENTITY, ...changes }))

describe('the check of an answer', () => {
  it('passes the answers the mock gives', () => {
    expect(violationsOf(answer())).toEqual([])
    expect(violationsOf(answer({ status: 404, headers: PROBLEM_HEADERS, body: problem(404, 'Not Found') }))).toEqual([])
    expect(violationsOf(answer({ method: 'DELETE', status: 204, headers: { 'cache-control': 'no-store' }, body: Buffer.alloc(0) }))).toEqual([])
    expect(
      violationsOf(
        answer({ method: 'PUT', status: 405, headers: { ...PROBLEM_HEADERS, allow: 'GET, POST, DELETE' }, body: problem(405, 'Method Not Allowed') }),
      ),
    ).toEqual([])
  })

  it.each<[string, Partial<Answer>, RegExp]>([
    ['a required field missing', { body: identityWith({ sessions: undefined }) }, /must have required property 'sessions'/],
    ['a field the schema does not have', { body: identityWith({ password: 'x' }) }, /must NOT have unevaluated properties/],
    ['a field of the wrong type', { body: identityWith({ locked: 'no' }) }, /\/locked must be boolean/],
    ['a timestamp in another form', { body: identityWith({ createdAt: '2025-01-31T12:00:00Z' }) }, /\/createdAt must match pattern/],
    [
      'a device without its name',
      { body: identityWith({ tokens: [{ id: IDENTITY.id, createdAt: IDENTITY.createdAt, model: 'm', label: '' }] }) },
      /\/tokens\/0 must have required property 'name'/,
    ],
    ['a body that is not JSON', { body: Buffer.from('{"id":') }, /not JSON/],
    ['a status the operation does not answer', { status: 201 }, /201 is not an answer of retrieveIdentity/],
    ['another content type', { headers: { 'content-type': 'text/html', 'cache-control': 'no-store' } }, /content type text\/html is not application\/json/],
    ['no Cache-Control', { headers: { 'content-type': 'application/json' } }, /header Cache-Control is missing/],
    [
      'a problem that is not problem JSON',
      { status: 404, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: problem(404, 'Not Found') },
      /is not application\/problem\+json/,
    ],
    [
      "a problem whose status is not the answer's",
      { status: 404, headers: PROBLEM_HEADERS, body: problem(400, 'Bad Request') },
      /\/status must be equal to constant/,
    ],
    [
      'field errors on a status other than 400',
      { status: 404, headers: PROBLEM_HEADERS, body: problem(404, 'Not Found', { errors: {} }) },
      /must NOT be valid/,
    ],
    ['a 429 without Retry-After', { status: 429, headers: PROBLEM_HEADERS, body: problem(429, 'Too Many Requests') }, /header Retry-After is missing/],
    ['a 401 without WWW-Authenticate', { status: 401, headers: PROBLEM_HEADERS, body: problem(401, 'Unauthorized') }, /header WWW-Authenticate is missing/],
    [
      'a body on a 204',
      { method: 'DELETE', status: 204, headers: { 'cache-control': 'no-store', 'content-type': 'application/json' }, body: Buffer.from('{}') },
      /there must be no body/,
    ],
    ['a 405 without Allow', { method: 'PUT', status: 405, headers: PROBLEM_HEADERS, body: problem(405, 'Method Not Allowed') }, /header Allow is missing/],
    ['an answer at a path the document does not have', { target: '/v1/entity/nothing' }, /200 is not an answer the document lists for this path/],
  ])('fails %s', (_, changes, why) => {
    expect(violationsOf(answer(changes)).join('; ')).toMatch(why)
  })

  it('fails the test that received a wrong answer, whichever server gave it', async () => {
    // Not the mock: a server that gets check's answer wrong, seen by the same hook as the mock's answers.
    const wrong = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
      res.end(JSON.stringify({ message: 'pong', extra: true }))
    })
    const url = await listen(wrong)
    try {
      expect((await fetch(`${url}/v1/entity/check`, { method: 'POST' })).status).toBe(200)
    } finally {
      await closeServer(wrong)
    }
    // Taken here, so that this test passes; left, they would fail it in afterEach.
    expect(takeViolations()).toEqual([expect.stringMatching(/^POST \/v1\/entity\/check → 200: body must NOT have additional properties/)])
  })

  it('leaves alone an answer a fault knob forced, which would fail otherwise, and checks the next one again', async () => {
    await service.knob('fail', { status: 200, match: 'check', body: 'not json', contentType: 'text/plain' })
    const before = answerCounts()
    const forced = await service.api('POST', '/v1/entity/check', { body: { message: 'ping' } })
    const body = Buffer.from(await forced.arrayBuffer())
    expect(answerCounts()).toEqual({ checked: before.checked, exempt: before.exempt + 1 })
    const asSent: Answer = { method: 'POST', target: '/v1/entity/check', status: forced.status, headers: Object.fromEntries(forced.headers), body }
    expect(violationsOf(asSent)).toEqual(['content type text/plain is not application/json'])

    expect((await service.api('POST', '/v1/entity/check', { body: { message: 'ping' } })).status).toBe(200)
    expect(answerCounts()).toEqual({ checked: before.checked + 1, exempt: before.exempt + 1 })
  })
})
