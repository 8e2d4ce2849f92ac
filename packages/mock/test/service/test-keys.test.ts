// @vitest-environment node
// The test keys over real HTTP, as an integrator's page and controller meet them: test-signs is
// signed by the test identity's phone about a second after the first poll, test-expires lives
// five seconds, test-unavailable answers 503. The service's own keys are untouched by them.
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { startService } from '../../src/service/server.js'
import { TEST_SECRET } from '../../src/service/test-keys/published-keys.js'
import { createClient } from 'service-auth/server'
import { problemOf, useService } from './helpers.js'

const service = useService({ testKeys: true })
const testKey = (key: string) => ({ key, secret: TEST_SECRET })

/** POST /v1/entity/challenges as the embed sends it, from a page on some origin. */
const create = (key: string) =>
  fetch(service.url + '/v1/entity/challenges', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:3000' },
    body: JSON.stringify({ key }),
  })

/** Polls as the embed does (again at once after each 204) until an answer that is not 204. */
async function pollUntilSettled(pollingUrl: string): Promise<Response> {
  for (;;) {
    const res = await fetch(pollingUrl)
    if (res.status !== 204) return res
  }
}

describe('test-signs', () => {
  it('is signed by test@example.com about a second after the first poll, with no other call; the controller confirms it', async () => {
    const res = await create('test-signs')
    expect(res.status).toBe(201)
    const { id, pollingUrl, authTokenUrl } = await res.json()
    // Not before the widget polls: a code nobody looks at is not signed.
    expect((await fetch(authTokenUrl)).status).toBe(204)

    const firstPoll = Date.now()
    const answer = await pollUntilSettled(pollingUrl)
    const took = Date.now() - firstPoll
    expect(answer.status).toBe(200)
    expect(took).toBeGreaterThanOrEqual(900)
    expect(took).toBeLessThan(2500)
    const { token } = await answer.json()
    expect(decodeJwt(token)).toMatchObject({ jti: id, sub: 'test@example.com', aud: 'test-signs' })

    // The integrator's controller, with the test key and the published secret, as for any key.
    const client = createClient({ baseUrl: service.url, key: 'test-signs', secret: TEST_SECRET })
    const confirmed = await client.authenticate('test@example.com', { challenge: id, otp: decodeJwt(token).otp as string })
    expect(confirmed.identifier).toBe('test@example.com')
  })

  it('knows the test identity with its phone from the start, and again after a reset', async () => {
    for (let round = 0; round < 2; round++) {
      const res = await service.api('GET', '/v1/entity/identities', { key: testKey('test-expires') })
      const identities = (await res.json()) as { identifier: string; tokens: unknown[] }[]
      expect(identities.map(({ identifier, tokens }) => [identifier, tokens.length])).toEqual([['test@example.com', 1]])
      expect((await service.knob('reset')).status).toBe(204)
    }
  })

  it('signs again when a test deleted the identity meanwhile', async () => {
    expect((await service.api('DELETE', '/v1/entity/identities/test@example.com', { key: testKey('test-signs') })).status).toBe(204)
    const { pollingUrl } = await (await create('test-signs')).json()
    expect(decodeJwt((await (await pollUntilSettled(pollingUrl)).json()).token).sub).toBe('test@example.com')
  })
})

describe('test-expires', () => {
  it('makes challenges that expire five seconds after creation, unsigned; a held poll hears it at once', async () => {
    // One poll held past the expiry shows the moment, without polling in a loop.
    await service.knob('config', { holdMs: 10_000 })
    const challenge = await (await create('test-expires')).json()
    expect(Date.parse(challenge.expiresAt) - Date.parse(challenge.createdAt)).toBe(5000)
    const res = await fetch(challenge.pollingUrl)
    expect(res.status).toBe(410)
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(challenge.expiresAt) - 50)
  }, 10_000)
})

describe('test-unavailable', () => {
  it('answers challenge creation with 503 and Retry-After: 5, readable by the page', async () => {
    const res = await create('test-unavailable')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
    expect(res.headers.get('access-control-expose-headers')).toBe('Retry-After')
    expect((await problemOf(res)).detail).toMatch(/test key/)
    expect(await (await service.knob('challenges', undefined, 'GET')).json()).toEqual([])
  })

  it('never runs out, a reset included; a failure a test queued comes first', async () => {
    await service.knob('fail', { status: 429, match: 'create', key: 'test-unavailable' })
    expect((await create('test-unavailable')).status).toBe(429)
    for (let round = 0; round < 2; round++) {
      expect((await create('test-unavailable')).status).toBe(503)
      expect((await create('test-unavailable')).status).toBe(503)
      await service.knob('reset')
    }
  })
})

describe("the service's own keys", () => {
  it('are not signed by anyone: a challenge of its own key stays pending past the first poll', async () => {
    // Held longer than test-signs takes to sign.
    await service.knob('config', { holdMs: 1500 })
    const challenge = await service.createChallenge()
    expect((await fetch(challenge.pollingUrl)).status).toBe(204)
  })
})

describe('without test keys', () => {
  it('knows none of them: the default of startService, and testKeys: false', async () => {
    for (const testKeys of [undefined, false]) {
      const handle = await startService({ port: 0, keys: [{ key: 'own', secret: TEST_SECRET }], testKeys })
      try {
        for (const key of ['test-signs', 'test-expires', 'test-unavailable']) {
          const res = await fetch(handle.url + '/v1/entity/challenges', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ key }),
          })
          expect(res.status, key).toBe(403)
        }
      } finally {
        await handle.close()
      }
    }
  })

  it('signs as another identity when told so', async () => {
    const handle = await startService({ port: 0, keys: [{ key: 'own', secret: TEST_SECRET }], testKeys: { identity: 'ada@example.com' } })
    try {
      const res = await fetch(handle.url + '/v1/entity/challenges', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ key: 'test-signs' }),
      })
      const { pollingUrl } = await res.json()
      expect(decodeJwt((await (await pollUntilSettled(pollingUrl)).json()).token).sub).toBe('ada@example.com')
    } finally {
      await handle.close()
    }
  })

  it('refuses to start with a key of its own named like a test key, or a test identity that is no identifier', async () => {
    await expect(startService({ port: 0, keys: [{ key: 'test-signs', secret: TEST_SECRET }], testKeys: true })).rejects.toThrow(/test-signs is a test key/)
    await expect(startService({ port: 0, keys: [{ key: 'own', secret: TEST_SECRET }], testKeys: { identity: '' } })).rejects.toThrow(/test identity/)
  })
})
