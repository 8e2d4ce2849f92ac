// @vitest-environment node
// The rate limits over real HTTP: signed calls have a budget per key, unsigned challenge
// creations one per key and client address, and neither spends the other; past a budget the
// answer is 429 with Retry-After. The windows themselves are checked with explicit clock values.
import { request } from 'node:http'
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { HttpProblem } from '@service-auth/http'
import { rateLimitBucket } from '../../src/service/access/client-address.js'
import { RateLimiter } from '../../src/service/access/rate-limiter.js'
import { newKey, problemOf, useService } from './helpers.js'

const other = newKey('other')
const service = useService({}, [{ key: other.key, secret: other.secret }])
const IDENTITIES = '/v1/entity/identities'
const SHOP = 'https://shop.example'

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  json: any
}

/**
 * POST /v1/entity/challenges as a page's embed does, unsigned, from the given loopback address:
 * the service listens on 127.0.0.1, and any 127.x.y.z can reach it, as another client would.
 */
function createFrom(address: string, key = service.key.key): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      service.url + '/v1/entity/challenges',
      { method: 'POST', localAddress: address, agent: false, headers: { 'Content-Type': 'application/json', Origin: SHOP } },
      (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) }))
      },
    )
    req.once('error', reject)
    req.end(JSON.stringify({ key }))
  })
}

const BOT = '127.0.0.2'
const PERSON = '127.0.0.1'

describe('signed calls', () => {
  it("the request past the key's limit gets 429 with Retry-After; another key is not affected", async () => {
    await service.knob('config', { rateLimit: 3, rateLimitWindowMs: 60_000 })
    for (let i = 0; i < 3; i++) expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    const limited = await service.api('GET', IDENTITIES)
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    const problem = await problemOf(limited)
    expect(problem.title).toBe('Too Many Requests')
    expect(problem.detail).toMatch(/more than 3 signed requests in 60 s/)
    expect((await service.api('GET', IDENTITIES, { key: other })).status).toBe(200)
  })

  it("unsigned requests do not spend a key's budget; rateLimit 0 turns the limit off", async () => {
    await service.knob('config', { rateLimit: 1 })
    for (let i = 0; i < 3; i++) expect((await service.api('GET', IDENTITIES, { authorization: null })).status).toBe(401)
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    await service.knob('config', { rateLimit: 0 })
    for (let i = 0; i < 5; i++) expect((await service.api('GET', IDENTITIES)).status).toBe(200)
  })
})

describe('anonymous challenge creations', () => {
  it('cannot lock the integrator out: after a bot spends far more than the signed budget, a person still signs in and authenticate answers 200', async () => {
    await service.knob('config', { rateLimit: 50 })
    await service.provisionPhone('ada@example.com')
    // A bot that read the API key off the login page, 150 times in a row.
    const bot: number[] = []
    for (let i = 0; i < 150; i++) bot.push((await createFrom(BOT)).status)

    // Someone else loads the login page, signs with their phone, and the controller confirms.
    const created = await createFrom(PERSON)
    expect(created.status).toBe(201)
    const { jti, otp } = decodeJwt(await service.sign(created.json.id, 'ada@example.com'))
    const confirmed = await service.api('POST', `${IDENTITIES}/ada%40example.com/authenticate`, { body: { challenge: jti, otp } })
    expect(confirmed.status).toBe(200)
    // The signed budget is whole: 50 less the enroll and the authenticate.
    for (let i = 0; i < 48; i++) expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    expect((await service.api('GET', IDENTITIES)).status).toBe(429)

    // The bot had its own budget: 120 per key and address by default, then 429.
    expect(bot.filter((status) => status === 201)).toHaveLength(120)
    expect(bot.slice(120).every((status) => status === 429)).toBe(true)
  })

  it('past the budget of a key and address: 429 problem JSON with Retry-After and the CORS headers the embed needs; other addresses and keys go on', async () => {
    await service.knob('config', { browserRateLimit: 2, rateLimitWindowMs: 30_000 })
    expect((await createFrom(BOT)).status).toBe(201)
    expect((await createFrom(BOT)).status).toBe(201)
    const limited = await createFrom(BOT)
    expect(limited.status).toBe(429)
    expect(limited.headers['content-type']).toBe('application/problem+json')
    expect(limited.json).toMatchObject({
      status: 429,
      title: 'Too Many Requests',
      detail: expect.stringMatching(/more than 2 challenges .* from this address in 30 s/i),
    })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(30)
    expect(limited.headers['access-control-allow-origin']).toBe(SHOP)
    expect(limited.headers['access-control-expose-headers']).toBe('Retry-After')

    expect((await createFrom(PERSON)).status).toBe(201)
    expect((await createFrom(BOT, other.key)).status).toBe(201)
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    // Nothing was created for the refused request.
    expect(await (await service.knob('challenges', undefined, 'GET')).json()).toHaveLength(4)
  })

  it('browserRateLimit 0 turns the limit off', async () => {
    await service.knob('config', { browserRateLimit: 0 })
    for (let i = 0; i < 130; i++) expect((await createFrom(BOT)).status).toBe(201)
  })
})

describe('the windows', () => {
  const limiter = new RateLimiter(() => ({ rateLimit: 2, browserRateLimit: 1, rateLimitWindowMs: 10_000 }))
  const outcome = (take: () => void) => {
    try {
      take()
      return 'ok'
    } catch (error) {
      return (error as HttpProblem).headers['Retry-After']
    }
  }
  const signed = (now: number) => outcome(() => limiter.takeSigned('k', now))
  const browser = (address: string, now: number, key = 'k') => outcome(() => limiter.takeBrowser(key, address, now))

  it('allow the limit per window and say when the window opens again', () => {
    expect([signed(0), signed(1000), signed(2500)]).toEqual(['ok', 'ok', '8'])
    expect(signed(9_999)).toBe('1')
    expect([signed(10_000), signed(10_001), signed(10_002)]).toEqual(['ok', 'ok', '10'])
  })

  it('count creations per key and address, apart from the signed ones', () => {
    expect([browser('a', 0), browser('a', 1), browser('b', 2), browser('a', 3, 'k2')]).toEqual(['ok', '10', 'ok', 'ok'])
    expect(browser('a', 10_000)).toBe('ok')
  })
})

describe('the client address', () => {
  it('groups IPv6 addresses by their /64, and reads IPv4-mapped ones as IPv4', () => {
    expect(rateLimitBucket('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64')
    expect(rateLimitBucket('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64')
    expect(rateLimitBucket('2001:db8:1::9')).toBe('2001:db8:1:0::/64')
    expect(rateLimitBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(rateLimitBucket('::1')).toBe('0:0:0:0::/64')
    expect(rateLimitBucket('::ffff:10.0.0.1')).toBe('10.0.0.1')
    expect(rateLimitBucket('10.0.0.1')).toBe('10.0.0.1')
  })

  it('counts a /64 as one client: a bot cannot take a fresh IPv6 address per request', () => {
    const limiter = new RateLimiter(() => ({ rateLimit: 0, browserRateLimit: 1, rateLimitWindowMs: 10_000 }))
    limiter.takeBrowser('k', '2001:db8:1:2::1', 0)
    expect(() => limiter.takeBrowser('k', '2001:db8:1:2:ffff:ffff:ffff:ffff', 1)).toThrow(HttpProblem)
    expect(() => limiter.takeBrowser('k', '2001:db8:1:3::1', 2)).not.toThrow()
  })

  /** A creation through a proxy on this machine, which names the client in X-Forwarded-For. */
  const createVia = (url: string, key: string, forwardedFor: string) =>
    fetch(url + '/v1/entity/challenges', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
      body: JSON.stringify({ key }),
    })

  it("is the TCP peer's by default: X-Forwarded-For, which any client can send, is not trusted", async () => {
    await service.knob('config', { browserRateLimit: 1 })
    expect((await createVia(service.url, service.key.key, '203.0.113.1')).status).toBe(201)
    expect((await createVia(service.url, service.key.key, '203.0.113.2')).status).toBe(429)
  })

  describe('behind a proxy (clientAddressHeader)', () => {
    const proxied = useService({ clientAddressHeader: 'X-Forwarded-For', browserRateLimit: 1 })

    it('is the last entry of the header, the one the proxy added; IPv6 clients by their /64', async () => {
      const create = (forwardedFor: string) => createVia(proxied.url, proxied.key.key, forwardedFor).then((res) => res.status)
      expect(await create('198.51.100.9, 203.0.113.1')).toBe(201)
      expect(await create('203.0.113.2, 203.0.113.1')).toBe(429)
      expect(await create('203.0.113.1, 203.0.113.2')).toBe(201)
      expect(await create('2001:db8:1:2::1')).toBe(201)
      expect(await create('2001:db8:1:2::2')).toBe(429)
      expect(await create('2001:db8:1:3::1')).toBe(201)
    })

    it("is the peer's when the header holds no address", async () => {
      const create = (forwardedFor: string) => createVia(proxied.url, proxied.key.key, forwardedFor).then((res) => res.status)
      expect(await create('unknown')).toBe(201)
      expect(await create('')).toBe(429)
    })
  })
})
