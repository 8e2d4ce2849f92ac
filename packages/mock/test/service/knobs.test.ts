// @vitest-environment node
// The knob endpoints over real HTTP: failures for the next N requests or one challenge's polls,
// delays, holds until released, settings, the request log, reset; the index of them all at the
// address the banner prints; and none of it when the knobs are off.
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fingerprint } from '@service-auth/http'
import { KNOB_ROUTES } from '../../src/knobs/knob-routes.js'
import type { LoggedRequest } from '../../src/knobs/request-log.js'
import { startService, type ServiceHandle } from '../../src/service/server.js'
import { newKey, problemOf, signRequest, useService } from './helpers.js'

const service = useService()
const IDENTITIES = '/v1/entity/identities'

describe('fail', () => {
  it('the next N matching requests get the status (problem JSON, Retry-After), then all is normal', async () => {
    expect((await service.knob('fail', { status: 503, count: 2, match: 'identities', retryAfter: '7' })).status).toBe(204)
    for (let i = 0; i < 2; i++) {
      const res = await service.api('GET', IDENTITIES)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('7')
      expect((await problemOf(res)).detail).toMatch(/__knobs\/fail/)
    }
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
  })

  it('matches by kind: an enroll rule leaves challenge creation alone', async () => {
    await service.knob('fail', { status: 500, match: 'enroll' })
    await service.createChallenge()
    expect((await service.api('POST', '/v1/entity/identities/enroll', { body: { identifier: 'a' } })).status).toBe(500)
  })

  it('sends a raw body, or drops the connection', async () => {
    await service.knob('fail', { status: 200, match: 'authenticate', body: 'not json', contentType: 'text/plain' })
    const raw = await service.api('POST', `${IDENTITIES}/a/authenticate`, { body: {} })
    expect(await raw.text()).toBe('not json')
    await service.knob('fail', { status: 500, match: 'any', network: true })
    await expect(service.api('GET', IDENTITIES)).rejects.toThrow()
  })

  it('answers a redirect where `location` says', async () => {
    await service.knob('fail', { status: 302, match: 'authenticate', location: '/__knobs/' })
    const res = await service.api('POST', `${IDENTITIES}/a/authenticate`, { body: {}, redirect: 'manual' })
    expect([res.status, res.headers.get('location')]).toEqual([302, '/__knobs/'])
  })

  it("a challenge's own fail knob fails only its status polls", async () => {
    const first = await service.createChallenge()
    const second = await service.createChallenge()
    await service.knob('config', { holdMs: 0 })
    expect((await service.knob(`challenges/${first.id}/fail`, { status: 502, count: 1 })).status).toBe(204)
    expect((await fetch(second.pollingUrl)).status).toBe(204)
    expect((await fetch(first.pollingUrl)).status).toBe(502)
    expect((await fetch(first.pollingUrl)).status).toBe(204)
    expect((await service.knob('challenges/nope/fail', {})).status).toBe(404)
  })

  it("DELETE ends the failures still queued, a challenge's own too; 400 with a body", async () => {
    const challenge = await service.createChallenge()
    await service.knob('config', { holdMs: 0 })
    await service.knob('fail', { status: 500, count: 1000, match: 'identities', network: true })
    await service.knob(`challenges/${challenge.id}/fail`, { status: 502, count: 1000 })
    await expect(service.api('GET', IDENTITIES)).rejects.toThrow()
    expect((await fetch(challenge.pollingUrl)).status).toBe(502)
    expect((await service.knob('fail', undefined, 'DELETE')).status).toBe(204)
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    expect((await fetch(challenge.pollingUrl)).status).toBe(204)
    expect((await service.knob('fail', { all: true }, 'DELETE')).status).toBe(400)
  })

  it('400 for a bad rule, naming the field', async () => {
    const res = await service.knob('fail', { status: 99, match: 'everything', colour: 'red' })
    expect(res.status).toBe(400)
    expect(Object.keys((await problemOf(res)).errors!).sort()).toEqual(['colour', 'match', 'status'])
  })
})

describe('delay', () => {
  it('the next matching request waits first', async () => {
    await service.knob('delay', { ms: 150, match: 'identities' })
    const started = performance.now()
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
  })
})

describe('hold and release', () => {
  const held = async () => (await service.knob('hold', undefined, 'GET')).json()
  /** The request, and whether it has been answered yet. */
  const watched = (response: Promise<Response>) => {
    const watch = { answered: false, response }
    response.then(() => (watch.answered = true))
    return watch
  }
  const ping = () => service.api('POST', '/v1/entity/check', { body: { message: 'ping' } })

  it('the next matching request waits until released, however long that takes; others go on meanwhile', async () => {
    expect((await service.knob('hold', { match: 'identities' })).status).toBe(204)
    const waiting = watched(service.api('GET', `${IDENTITIES}?page=1`))
    await vi.waitFor(async () =>
      expect(await held()).toEqual([{ kind: 'identities', method: 'GET', path: IDENTITIES, key: service.key.key, since: expect.any(Number) }]),
    )
    // Another kind of request goes and comes back; the held one is still waiting.
    expect((await ping()).status).toBe(200)
    expect(waiting.answered).toBe(false)

    expect(await (await service.knob('release')).json()).toEqual({ released: 1 })
    expect((await waiting.response).status).toBe(200)
    expect(await held()).toEqual([])
    // The rule is used up: the next one goes at once.
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
  })

  it('holds `count` requests; a release lets go all that wait, and the rest of the rule stays', async () => {
    await service.knob('hold', { match: 'check', count: 3 })
    const first = watched(ping())
    const second = watched(ping())
    await vi.waitFor(async () => expect(await held()).toHaveLength(2))
    expect(await (await service.knob('release')).json()).toEqual({ released: 2 })
    expect([(await first.response).status, (await second.response).status]).toEqual([200, 200])

    const third = watched(ping())
    await vi.waitFor(async () => expect(await held()).toHaveLength(1))
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    expect(third.answered).toBe(false)
    await service.knob('release')
    expect((await third.response).status).toBe(200)
  })

  it('reset lets held requests go and forgets the rules', async () => {
    await service.knob('hold', { match: 'any', count: 5 })
    const waiting = watched(service.api('GET', IDENTITIES))
    await vi.waitFor(async () => expect(await held()).toHaveLength(1))
    await service.knob('reset')
    expect((await waiting.response).status).toBe(200)
    expect((await ping()).status).toBe(200)
    expect(await held()).toEqual([])
  })

  it('400 for a bad rule or a release with a body, naming the field', async () => {
    const res = await service.knob('hold', { match: 'everything', ms: 5 })
    expect(res.status).toBe(400)
    expect(Object.keys((await problemOf(res)).errors!).sort()).toEqual(['match', 'ms'])
    expect((await service.knob('release', { all: true })).status).toBe(400)
    expect((await service.knob('release', undefined, 'GET')).status).toBe(405)
  })
})

describe('config, requests and reset', () => {
  it('config shows and changes the settings; reset restores them', async () => {
    const changed = await (
      await service.knob('config', {
        holdMs: 5,
        challengeTtlMs: 1000,
        rateLimit: 9,
        browserRateLimit: 7,
        rateLimitWindowMs: 1000,
        enrollmentTimeoutSeconds: 60,
      })
    ).json()
    expect(changed).toEqual({ holdMs: 5, challengeTtlMs: 1000, enrollmentTimeoutSeconds: 60, rateLimit: 9, browserRateLimit: 7, rateLimitWindowMs: 1000 })
    expect(await (await service.knob('config', undefined, 'GET')).json()).toEqual(changed)
    await service.knob('reset')
    expect(await (await service.knob('config', undefined, 'GET')).json()).toMatchObject({
      holdMs: 1000,
      challengeTtlMs: 120_000,
      rateLimit: 600,
      browserRateLimit: 120,
    })
    expect((await service.knob('config', { holdMs: -1 })).status).toBe(400)
  })

  it('requests lists what the API received, knobs excluded', async () => {
    await service.api('GET', `${IDENTITIES}?page=1`)
    const [entry, ...rest] = await (await service.knob('requests', undefined, 'GET')).json()
    expect(rest).toEqual([])
    expect(entry).toMatchObject({ method: 'GET', path: `${IDENTITIES}?page=1`, authorization: expect.any(String) })
  })

  it('requests shows polling secrets, request tokens and one-time passwords only as fingerprints', async () => {
    await service.provisionPhone('ada@example.com')
    const { id, pollingUrl, authTokenUrl } = await service.createChallenge()
    const token = await service.sign(id, 'ada@example.com')
    const secret = new URL(pollingUrl).searchParams.get('secret')!
    expect((await fetch(pollingUrl)).status).toBe(200)
    expect((await fetch(authTokenUrl)).status).toBe(200)
    expect((await fetch(pollingUrl.replace('secret=', 'Secret='))).status).toBe(403)
    const { otp } = decodeJwt(token) as { otp: string }
    const confirmation = { challenge: id, otp }
    const bare = await signRequest({
      key: service.key,
      method: 'POST',
      url: `${service.url}${IDENTITIES}/ada%40example.com/authenticate`,
      body: JSON.stringify(confirmation),
      aud: service.url,
    })
    expect((await service.api('POST', `${IDENTITIES}/ada%40example.com/authenticate`, { body: confirmation, authorization: 'Bearer ' + bare })).status).toBe(
      200,
    )

    const log: LoggedRequest[] = await (await service.knob('requests', undefined, 'GET')).json()
    const text = JSON.stringify(log)
    for (const secretValue of [secret, token, bare, otp]) expect(text).not.toContain(secretValue)
    const paths = log.map((entry) => entry.path)
    expect(paths).toContain(`/v1/entity/challenges/${id}/status?secret=${fingerprint(secret)}`)
    expect(paths).toContain(`/v1/entity/challenges/${id}/token?secret=${fingerprint(secret)}`)
    expect(paths).toContain(`/v1/entity/challenges/${id}/status?Secret=${fingerprint(secret)}`)
    const authenticate = log.at(-1)!
    expect(authenticate.authorization).toBe('Bearer ' + fingerprint(bare))
    expect(JSON.parse(authenticate.body)).toEqual({ challenge: id, otp: fingerprint(otp) })
    const enroll = log.find((entry) => entry.path === `${IDENTITIES}/enroll`)!
    expect(enroll.authorization).toMatch(/^sha256:[0-9a-f]{12}$/)
  })

  it('reset forgets identities, devices, enrollments, challenges, e-mails, rules and requests', async () => {
    await service.createChallenge()
    await service.provisionPhone('ada@example.com')
    await service.api('POST', '/v1/entity/identities/enroll', { body: { identifier: 'ada@example.com', sendEmail: true } })
    await service.knob('fail', { status: 500, match: 'identities' })
    expect((await service.knob('reset')).status).toBe(204)
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    for (const list of ['challenges', 'enrollments', 'outbox']) {
      expect(await (await service.knob(list, undefined, 'GET')).json(), list).toEqual([])
    }
    expect(await (await service.api('GET', IDENTITIES)).json()).toEqual([])
  })

  it('404 for an unknown knob, 405 for a wrong method', async () => {
    expect((await service.knob('nothing')).status).toBe(404)
    expect((await service.knob('reset', undefined, 'GET')).status).toBe(405)
  })
})

describe('the index, at the address the banner prints', () => {
  it('GET /__knobs/ (and /__knobs) lists every knob: its method, its path and what it does', async () => {
    for (const path of ['/__knobs/', '/__knobs']) {
      const res = await fetch(service.url + path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/)
      const index = (await res.json()) as { method: string; path: string; doc: string }[]
      expect(index, path).toContainEqual({
        method: 'POST',
        path: '/__knobs/challenges/{id}/sign',
        doc: 'The phone signs, as a provisioned device of the identity',
      })
      expect(index, path).toContainEqual({
        method: 'DELETE',
        path: '/__knobs/fail',
        doc: 'The failures still queued go unused (with `key`, those queued through it)',
      })
      expect(index, path).toContainEqual({ method: 'GET', path: '/__knobs/', doc: 'Every knob: its method, its path and what it does' })
      expect(index.map(({ method, path }) => `${method} ${path}`)).toEqual(
        KNOB_ROUTES.flatMap((route) => Object.keys(route.methods).map((method) => `${method} ${route.path}`)),
      )
    }
  })

  it('answers a person typing it (Sec-Fetch-Site: none), and refuses a page of another origin as every knob does', async () => {
    expect((await fetch(`${service.url}/__knobs/`, { headers: { 'Sec-Fetch-Site': 'none' } })).status).toBe(200)
    const refused = await fetch(`${service.url}/__knobs/`, { headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } })
    expect(refused.status).toBe(403)
    expect((await problemOf(refused)).detail).toMatch(/--knobs-origin/)
  })
})

describe('knobs off', () => {
  let off: ServiceHandle
  beforeAll(async () => {
    const key = newKey('off')
    off = await startService({ port: 0, keys: [{ key: key.key, secret: key.secret }] })
  })
  afterAll(() => off.close())

  it('every knob is a 404', async () => {
    for (const path of ['reset', 'config', 'devices', 'outbox']) {
      expect((await fetch(`${off.url}/__knobs/${path}`, { method: 'POST' })).status).toBe(404)
    }
  })

  it('the index is a 404 too, as it was', async () => {
    for (const path of ['/__knobs/', '/__knobs']) {
      const res = await fetch(off.url + path)
      expect(res.status, path).toBe(404)
      expect((await problemOf(res)).detail).toBe('There is nothing at this address.')
    }
  })
})
