// @vitest-environment node
// Knobs limited to an API key, as tests sharing one mock use them: each takes a key of its own
// (POST /__knobs/keys), and the failures, delays, holds and signings it asks for through that key
// touch only that key's requests and challenges. A knob that names no key acts on all, as before.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { problemOf, useService, type TestKey } from './helpers.js'

const service = useService()
const IDENTITIES = '/v1/entity/identities'

/** A fresh key of the mock's, as a test sharing it takes one. */
async function takeKey(): Promise<TestKey & { app: string }> {
  const res = await service.knob('keys', {})
  expect(res.status).toBe(201)
  return res.json()
}

/** POST /v1/entity/challenges with the key, from a page on some origin; the answer. */
const create = (key: TestKey) =>
  fetch(service.url + '/v1/entity/challenges', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:3000' },
    body: JSON.stringify({ key: key.key }),
  })

/** The request, and whether it has been answered yet. */
const watched = (response: Promise<Response>) => {
  const watch = { answered: false, response }
  void response.then(() => (watch.answered = true))
  return watch
}

describe('keys', () => {
  it('hands out a fresh key of its own app, for any origin and every call; a reset keeps it', async () => {
    const mine = await takeKey()
    expect(mine).toEqual({ key: expect.any(String), secret: expect.any(String), app: mine.key })
    expect(mine.key).not.toBe((await takeKey()).key)
    expect((await create(mine)).status).toBe(201)
    expect((await service.api('POST', `${IDENTITIES}`, { key: mine, body: { identifier: 'ada@example.com' } })).status).toBe(201)
    // Its identities are its own app's: the service's key knows none of them.
    expect(await (await service.api('GET', IDENTITIES)).json()).toEqual([])
    await service.knob('reset')
    expect((await service.api('POST', '/v1/entity/check', { key: mine, body: { message: 'ping' } })).status).toBe(200)
  })

  it('400 for a body', async () => {
    expect((await service.knob('keys', { app: 'shop' })).status).toBe(400)
  })
})

describe('freeing a key', () => {
  afterEach(() => vi.useRealTimers())

  const free = (key: string) => service.knob(`keys/${encodeURIComponent(key)}`, undefined, 'DELETE')
  const listed = async (knob: 'challenges' | 'enrollments') =>
    ((await (await service.knob(knob, undefined, 'GET')).json()) as { app: string }[]).map(({ app }) => app)

  it('DELETE /__knobs/keys/{key} frees it with all of its own: its rules, held requests, challenges and identities; another key keeps its', async () => {
    const [mine, theirs] = [await takeKey(), await takeKey()]
    await service.knob('config', { holdMs: 0 })
    const pollingUrls: Record<string, string> = {}
    for (const key of [mine, theirs]) {
      pollingUrls[key.key] = (await (await create(key)).json()).pollingUrl
      expect((await service.api('POST', '/v1/entity/identities/enroll', { key, body: { identifier: 'ada@example.com' } })).status).toBe(201)
    }
    await service.knob('fail', { status: 503, match: 'create', key: mine.key })
    await service.knob('hold', { match: 'status', key: mine.key })
    const myPoll = watched(fetch(pollingUrls[mine.key]!))
    await vi.waitFor(async () => expect(await (await service.knob(`hold?key=${mine.key}`, undefined, 'GET')).json()).toHaveLength(1))

    expect((await free(mine.key)).status).toBe(204)
    // Its held poll goes on, and finds its challenge gone.
    expect((await myPoll.response).status).toBe(404)
    // The key is gone: its signed calls, its creations and the knobs refuse it.
    expect((await service.api('GET', IDENTITIES, { key: mine })).status).toBe(401)
    expect((await create(mine)).status).toBe(403)
    expect((await service.knob('hold', { key: mine.key })).status).toBe(400)
    // So is all of its own.
    expect(await listed('challenges')).not.toContain(mine.key)
    expect(await listed('enrollments')).not.toContain(mine.key)
    // Another key's stay, and its requests are neither held nor failed by the freed key's rules.
    expect(await listed('challenges')).toContain(theirs.key)
    expect(await listed('enrollments')).toContain(theirs.key)
    expect((await fetch(pollingUrls[theirs.key]!)).status).toBe(204)
    expect((await create(theirs)).status).toBe(201)
    expect((await service.api('GET', `${IDENTITIES}/ada@example.com`, { key: theirs })).status).toBe(200)
  })

  it('404 for a key it does not know, or freed already; 409 for a key the service started with, which stays', async () => {
    const mine = await takeKey()
    expect((await free(mine.key)).status).toBe(204)
    const again = await free(mine.key)
    expect(again.status).toBe(404)
    expect((await problemOf(again)).detail).toBe(`There is no API key ${mine.key}.`)
    const own = await free(service.key.key)
    expect(own.status).toBe(409)
    expect((await problemOf(own)).detail).toBe(`The API key ${service.key.key} was not taken with POST /__knobs/keys: only such keys can be freed.`)
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    expect((await service.knob(`keys/${encodeURIComponent(mine.key)}`, { key: mine.key }, 'DELETE')).status).toBe(400)
  })

  it('a key unused for an hour is gone, and freed with all of its own when the next key is taken; one used meanwhile stays', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const [idle, busy] = [await takeKey(), await takeKey()]
    expect((await create(idle)).status).toBe(201)
    vi.advanceTimersByTime(59 * 60_000)
    expect((await service.api('GET', IDENTITIES, { key: busy })).status).toBe(200)
    expect((await create(idle)).status).toBe(201)
    vi.advanceTimersByTime(59 * 60_000)
    expect((await service.api('GET', IDENTITIES, { key: busy })).status).toBe(200)
    vi.advanceTimersByTime(60_000)
    // An hour since its last use: refused, as a freed key is.
    expect((await create(idle)).status).toBe(403)
    expect((await service.api('GET', IDENTITIES, { key: idle })).status).toBe(401)
    expect(await listed('challenges')).toContain(idle.key)
    await takeKey()
    expect(await listed('challenges')).not.toContain(idle.key)
    expect((await free(idle.key)).status).toBe(404)
    expect((await service.api('GET', IDENTITIES, { key: busy })).status).toBe(200)
  })
})

describe('fail through a key', () => {
  it("DELETE through a key ends that key's failures only", async () => {
    const [mine, theirs] = [await takeKey(), await takeKey()]
    await service.knob('fail', { status: 503, count: 5, match: 'create', key: mine.key })
    await service.knob('fail', { status: 503, count: 5, match: 'create', key: theirs.key })
    expect((await service.knob('fail', { key: mine.key }, 'DELETE')).status).toBe(204)
    expect((await create(mine)).status).toBe(201)
    expect((await create(theirs)).status).toBe(503)
    expect((await service.knob('fail', { key: 'nobody' }, 'DELETE')).status).toBe(400)
  })

  it("fails that key's creations, polls and signed calls only; another key's go on and leave the rule be", async () => {
    const [mine, theirs] = [await takeKey(), await takeKey()]
    await service.knob('config', { holdMs: 0 })
    const { pollingUrl } = await (await create(mine)).json()
    const theirPollingUrl = (await (await create(theirs)).json()).pollingUrl

    await service.knob('fail', { status: 503, match: 'create', key: mine.key })
    expect((await create(theirs)).status).toBe(201)
    expect((await create(mine)).status).toBe(503)

    await service.knob('fail', { status: 502, match: 'status', key: mine.key })
    expect((await fetch(theirPollingUrl)).status).toBe(204)
    expect((await fetch(pollingUrl)).status).toBe(502)

    await service.knob('fail', { status: 500, key: mine.key })
    expect((await service.api('GET', IDENTITIES, { key: theirs })).status).toBe(200)
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    expect((await service.api('GET', IDENTITIES, { key: mine })).status).toBe(500)
  })

  it('without a key, the next request fails whoever makes it, as it always did', async () => {
    const theirs = await takeKey()
    await service.knob('fail', { status: 503, match: 'create' })
    expect((await create(theirs)).status).toBe(503)
    expect((await service.createChallenge()).id).toEqual(expect.any(String))
  })

  it('400 naming the field for a key the service does not know', async () => {
    for (const knob of ['fail', 'delay', 'hold', 'release']) {
      const res = await service.knob(knob, { ...(knob === 'fail' && { status: 500 }), ...(knob === 'delay' && { ms: 1 }), key: 'nobody' })
      expect(res.status, knob).toBe(400)
      expect((await problemOf(res)).errors, knob).toEqual({ key: [expect.objectContaining({ message: 'There is no API key nobody.' })] })
    }
    expect((await service.knob('hold?key=nobody', undefined, 'GET')).status).toBe(400)
    expect((await service.knob('challenges?key=nobody', undefined, 'GET')).status).toBe(400)
  })
})

describe('delay through a key', () => {
  it("delays that key's next request, not another's before it", async () => {
    const mine = await takeKey()
    await service.knob('delay', { ms: 150, match: 'identities', key: mine.key })
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    const started = performance.now()
    expect((await service.api('GET', IDENTITIES, { key: mine })).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
  })
})

describe('hold and release through a key', () => {
  const held = async (key?: TestKey) => (await service.knob(`hold${key ? `?key=${key.key}` : ''}`, undefined, 'GET')).json()

  it("holds that key's requests, lists them, and lets only them go", async () => {
    const [mine, theirs] = [await takeKey(), await takeKey()]
    await service.knob('hold', { match: 'identities', key: mine.key })
    await service.knob('hold', { match: 'identities', key: theirs.key })
    // Not the service's own key's request: neither rule is its.
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    const myRequest = watched(service.api('GET', IDENTITIES, { key: mine }))
    const theirRequest = watched(service.api('GET', IDENTITIES, { key: theirs }))
    await vi.waitFor(async () => expect(await held()).toHaveLength(2))
    expect(await held(mine)).toEqual([{ kind: 'identities', method: 'GET', path: IDENTITIES, key: mine.key, since: expect.any(Number) }])

    expect(await (await service.knob('release', { key: mine.key })).json()).toEqual({ released: 1 })
    expect((await myRequest.response).status).toBe(200)
    expect(theirRequest.answered).toBe(false)
    expect(await held()).toEqual([expect.objectContaining({ key: theirs.key })])
    // Without a key, a release lets every waiting request go, as it always did.
    expect(await (await service.knob('release')).json()).toEqual({ released: 1 })
    expect((await theirRequest.response).status).toBe(200)
  })
})

describe('challenge knobs through a key', () => {
  it("list, sign, expire, consume and fail only that key's challenges; another key's is a 404", async () => {
    const [mine, theirs] = [await takeKey(), await takeKey()]
    const challenge = await (await create(mine)).json()
    const theirChallenge = await (await create(theirs)).json()
    const listed = await (await service.knob(`challenges?key=${mine.key}`, undefined, 'GET')).json()
    expect(listed).toEqual([expect.objectContaining({ id: challenge.id, key: mine.key, app: mine.app })])

    for (const action of ['sign', 'expire', 'consume', 'fail']) {
      const body = { key: mine.key, ...(action === 'sign' && { identifier: 'ada@example.com' }) }
      const res = await service.knob(`challenges/${theirChallenge.id}/${action}`, body)
      expect(res.status, action).toBe(404)
      expect((await problemOf(res)).detail).toBe(`The challenge is not one of the API key ${mine.key}'s.`)
    }
    expect((await service.knob(`challenges/${challenge.id}/expire`, { key: mine.key })).status).toBe(204)
    expect((await service.knob(`challenges/${theirChallenge.id}/expire`)).status).toBe(204)
  })

  it("sign through a key signs the key's own challenge", async () => {
    const mine = await takeKey()
    await service.provisionPhone('ada@example.com', mine)
    const { id, pollingUrl } = await (await create(mine)).json()
    const res = await service.knob(`challenges/${id}/sign`, { identifier: 'ada@example.com', key: mine.key })
    expect(res.status).toBe(200)
    expect((await fetch(pollingUrl)).status).toBe(200)
  })
})
