// @vitest-environment node
// `@service-auth/mock/knobs` against the mock over HTTP: a call for every knob (the route table
// and the client cannot drift apart), answers as the knobs give them, and refusals that say what
// was asked, what the mock answered, or that there is no mock or no knobs to answer.
import { matchRoute } from '@service-auth/http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { KNOB_ROUTES } from '../../src/knobs/knob-routes.js'
import { startService } from '../../src/service/server.js'
import { KnobClient, KnobError } from '../../src/testing/knob-client.js'
import { TestKitError } from '../../src/testing/errors.js'
import { useService } from '../service/helpers.js'

const service = useService()
const knobs = () => new KnobClient(service.url + '/')

afterEach(() => vi.restoreAllMocks())

/**
 * Every (route, method) of the knob table, as `METHOD pattern`; but the index (GET /__knobs/), for a
 * person who follows the banner's address: a test has the client's calls themselves.
 */
const everyKnob = () =>
  KNOB_ROUTES.filter((route) => route.path !== '/__knobs/').flatMap((route) => Object.keys(route.methods).map((method) => `${method} ${route.pattern.source}`))

describe('KnobClient', () => {
  it("refuses a url that is not an http(s) URL with a TypeError naming it, not JavaScript's own; takes a URL as a string", () => {
    const must = "KnobClient's url must be the mock service's http(s) URL, a string or a URL (e.g. 'http://127.0.0.1:8081')"
    expect(() => new KnobClient(123 as unknown as string)).toThrow(new TypeError(`${must}, not 123.`))
    expect(() => new KnobClient('localhost:8081')).toThrow(new TypeError(`${must}, not "localhost:8081".`))
    expect(new KnobClient(new URL('http://127.0.0.1:8081/')).url).toBe('http://127.0.0.1:8081')
  })

  it('has a call for every knob of the route table', async () => {
    const sent: string[] = []
    const fetched = globalThis.fetch
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = new URL(String(input))
      const match = matchRoute(KNOB_ROUTES, url.pathname)
      if (match) sent.push(`${init?.method ?? 'GET'} ${match.route.pattern.source}`)
      return fetched(input, init)
    })
    const client = knobs()
    const { id } = await service.createChallenge()
    await client.challenges()
    await client.failChallenge(id, { status: 502 })
    await service.provisionPhone('ada@example.com')
    await client.signChallenge(id, { identifier: 'ada@example.com' })
    await client.consumeChallenge(id)
    await client.expireChallenge((await service.createChallenge()).id)
    const { key } = await client.createKey()
    await client.freeKey((await client.createKey()).key)
    const enrol = async (identifier: string) =>
      ((await (await service.api('POST', '/v1/entity/identities/enroll', { body: { identifier } })).json()) as { id: string }).id
    const bea = await enrol('bea@example.com')
    await client.enrollments()
    await client.provisionDevice({ token: bea, label: 'Bea' })
    await client.expireEnrollment(await enrol('cy@example.com'))
    await client.fail({ status: 500, match: 'create', key })
    await client.endFailures({ key })
    await client.delay({ ms: 1, match: 'check' })
    await client.hold({ match: 'check' })
    await client.held()
    await client.release()
    await client.settings()
    await client.configure({ holdMs: 10 })
    await client.requests()
    await client.outbox()
    await client.clearOutbox()
    await client.reset()
    expect([...new Set(sent)].sort()).toEqual(everyKnob().sort())
  })

  it('resolves to what the knobs answer', async () => {
    const client = knobs()
    const { id } = await service.createChallenge()
    await service.provisionPhone('ada@example.com')
    const { token } = await client.signChallenge(id, { identifier: 'ada@example.com' })
    expect(await client.challenges({ key: service.key.key })).toEqual([
      expect.objectContaining({ id, state: 'signed', key: service.key.key, identifier: 'ada@example.com', polls: 0 }),
    ])
    expect(token.split('.')).toHaveLength(3)
    expect(await client.challenges({ key: (await client.createKey()).key })).toEqual([])
    expect(await client.configure({ holdMs: 25 })).toEqual(expect.objectContaining({ holdMs: 25 }))
    expect((await client.settings()).holdMs).toBe(25)
    await client.hold({ match: 'check', key: service.key.key })
    const checking = service.api('POST', '/v1/entity/check')
    await expect.poll(() => client.held({ key: service.key.key })).toEqual([expect.objectContaining({ kind: 'check', method: 'POST' })])
    expect(await client.release({ key: service.key.key })).toBe(1)
    expect((await checking).status).toBe(200)
    expect((await client.requests()).map(({ path }) => path)).toContain('/v1/entity/check')
  })

  it('rejects a refusal with a KnobError: what was asked, the status and the detail', async () => {
    const refusal = await knobs()
      .fail({ status: 99, match: 'create' })
      .catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(KnobError)
    expect(refusal).toBeInstanceOf(TestKitError)
    expect(refusal).toMatchObject({ status: 400, detail: 'The submitted data is invalid.', what: 'queueing the failure' })
    expect((refusal as Error).message).toBe(
      'queueing the failure: the mock service answered 400: The submitted data is invalid. status: This value should be between 200 and 599.',
    )
    await expect(knobs().expireChallenge('nope')).rejects.toThrow(
      'expiring the challenge nope: the mock service answered 404: There is no challenge with this id.',
    )
  })

  it('names each field the mock refused, and its message, in the message and on the error as `errors`', async () => {
    const refusal = (await knobs()
      .fail({ status: 503, match: 'statuss' as 'status', count: 0 })
      .catch((error: unknown) => error)) as KnobError
    expect(refusal.message).toBe(
      'queueing the failure: the mock service answered 400: The submitted data is invalid. ' +
        'count: This value should be between 1 and 1000. ' +
        'match: The value you selected is not a valid choice. Choose one of: create, status, token, image, enroll, identities, authenticate, check, configuration, devices, sessions, any.',
    )
    expect(refusal.errors).toEqual({
      count: [{ code: expect.any(String), message: 'This value should be between 1 and 1000.' }],
      match: [{ code: expect.any(String), message: expect.stringMatching(/^The value you selected is not a valid choice/) }],
    })
    // A refusal without field errors has none to name.
    const notFound = (await knobs()
      .expireChallenge('nope')
      .catch((error: unknown) => error)) as KnobError
    expect(notFound.errors).toEqual({})
  })

  it('gives up on a mock that takes the connection and never answers, saying so', async () => {
    // A process that listens and says nothing: a stopped mock's port taken by something else.
    const { createServer } = await import('node:net')
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`
    // The time limit runs out at once, as 30 s later it would.
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => AbortSignal.abort(new DOMException('The time limit ran out.', 'TimeoutError')))
    try {
      const error = await new KnobClient(url).signChallenge('c1', { identifier: 'a' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(KnobError)
      expect((error as Error).message).toBe(
        `the mock service at ${url} did not answer POST /__knobs/challenges/c1/sign within 30 s: is the process at that address the mock, and is it running?`,
      )
      expect(timeout).toHaveBeenCalledWith(30_000)
    } finally {
      silent.close()
    }
  })

  it('says when there is no mock to answer, or no knobs', async () => {
    const gone = await startService({ port: 0, keys: [service.key], knobs: false })
    try {
      await expect(new KnobClient(gone.url).settings()).rejects.toThrow(`the mock service at ${gone.url} has no knobs: start it with them on`)
    } finally {
      await gone.close()
    }
    await expect(new KnobClient(gone.url).reset()).rejects.toThrow(new RegExp(`^the mock service at ${gone.url} cannot be reached \\(ECONNREFUSED\\)$`))
    // A port fetch refuses to connect to (as browsers do) has no code, only the cause's message.
    await expect(new KnobClient('http://127.0.0.1:6000').reset()).rejects.toThrow(
      /^the mock service at http:\/\/127\.0\.0\.1:6000 cannot be reached \(bad port\)$/,
    )
  })
})
