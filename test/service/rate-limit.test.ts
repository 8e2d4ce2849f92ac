// @vitest-environment node
// The per-key rate limit: over real HTTP a key past its budget gets 429 with Retry-After, other
// keys do not; the window itself is checked with explicit clock values, not real time.
import { describe, expect, it } from 'vitest'
import { HttpProblem } from '../../demo/common/problem.ts'
import { RateLimiter } from '../../demo/service/rate-limiter.ts'
import { newKey, problemOf, useService } from './helpers.ts'

const other = newKey('other')
const service = useService({}, [{ key: other.key, secret: other.secret }])
const IDENTITIES = '/v1/entity/identities'

describe('over HTTP', () => {
  it('the request past the limit gets 429 with Retry-After; another key is not affected', async () => {
    await service.knob('config', { rateLimit: 3, rateLimitWindowMs: 60_000 })
    for (let i = 0; i < 3; i++) expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    const limited = await service.api('GET', IDENTITIES)
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect((await problemOf(limited)).title).toBe('Too Many Requests')
    expect((await service.api('GET', IDENTITIES, { key: other })).status).toBe(200)
  })

  it('challenge creation counts against its key, and answers 429 with the CORS headers the embed needs', async () => {
    await service.knob('config', { rateLimit: 1 })
    await service.createChallenge()
    const res = await fetch(service.url + '/v1/entity/challenges', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://shop.example' },
      body: JSON.stringify({ key: service.key.key }),
    })
    expect(res.status).toBe(429)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example')
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
  })

  it('unsigned requests do not spend a key\'s budget; rateLimit 0 turns the limit off', async () => {
    await service.knob('config', { rateLimit: 1 })
    for (let i = 0; i < 3; i++) expect((await service.api('GET', IDENTITIES, { authorization: null })).status).toBe(401)
    expect((await service.api('GET', IDENTITIES)).status).toBe(200)
    await service.knob('config', { rateLimit: 0 })
    for (let i = 0; i < 5; i++) expect((await service.api('GET', IDENTITIES)).status).toBe(200)
  })
})

describe('the window', () => {
  const limiter = new RateLimiter(() => ({ rateLimit: 2, rateLimitWindowMs: 10_000 }))
  const take = (now: number) => {
    try {
      limiter.take('k', now)
      return 'ok'
    } catch (error) {
      return (error as HttpProblem).headers['Retry-After']
    }
  }

  it('allows the limit per window and says when the window opens again', () => {
    expect([take(0), take(1000), take(2500)]).toEqual(['ok', 'ok', '8'])
    expect(take(9_999)).toBe('1')
    expect([take(10_000), take(10_001), take(10_002)]).toEqual(['ok', 'ok', '10'])
  })
})
