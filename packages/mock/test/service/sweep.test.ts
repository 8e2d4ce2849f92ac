// @vitest-environment node
// Memory stays bounded: expired and used challenges and enrollment tokens are forgotten a
// while after their end. The stores are driven with explicit clock values.
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { Timers } from '../../src/common/timers.js'
import { ChallengeStore } from '../../src/service/challenges/challenge-store.js'
import { EnrollmentStore } from '../../src/service/enrollments/enrollment-store.js'
import { memoryStore } from '../../src/store/open-store.js'

const MINUTE = 60_000
const timers = new Timers()
const store = memoryStore()
const challenges = new ChallengeStore(timers, store.collection('challenges'))
const enrollments = new EnrollmentStore(store.collection('enrollments'))
afterEach(() => {
  challenges.clear()
  enrollments.clear()
})
afterAll(() => {
  challenges.close()
  enrollments.close()
})

describe('challenges', () => {
  it('an expired or consumed challenge is kept five minutes past its expiry (late polls get 410), then swept', () => {
    const expired = challenges.create(MINUTE, { app: 'a', key: 'k' })
    const consumed = challenges.create(MINUTE, { app: 'a', key: 'k' })
    challenges.expire(expired.id)
    challenges.consume(consumed)
    const expiredAt = expired.expiresAt.getTime()
    challenges.sweep(expiredAt + 4 * MINUTE)
    expect(challenges.list().map((c) => c.id)).toEqual([expired.id, consumed.id])
    challenges.sweep(expiredAt + 5 * MINUTE + 1000)
    expect(challenges.list().map((c) => c.id)).toEqual([consumed.id])
    challenges.sweep(consumed.expiresAt.getTime() + 5 * MINUTE + 1000)
    expect(challenges.list()).toEqual([])
    // The store forgets them too: a restart does not bring them back.
    expect(store.collection('challenges').load()).toEqual([])
  })

  it('a pending challenge stays until then', () => {
    const pending = challenges.create(10 * MINUTE, { app: 'a', key: 'k' })
    challenges.sweep(Date.now() + 9 * MINUTE)
    expect(challenges.get(pending.id)).toBe(pending)
  })
})

describe('enrollment tokens', () => {
  it('an expired token is swept five minutes after it expired; a redeemed one five minutes after redemption', () => {
    const unused = enrollments.create('a', 'identity-1', 60)
    const redeemed = enrollments.create('a', 'identity-2', 86_400)
    enrollments.redeem(redeemed)
    const expiry = unused.expiresAt.getTime()
    expect(enrollments.stateOf(unused, expiry)).toBe('expired')
    enrollments.sweep(expiry + 4 * MINUTE)
    expect(enrollments.list()).toHaveLength(2)
    enrollments.sweep(expiry + 6 * MINUTE)
    expect(enrollments.list()).toEqual([])
    expect(store.collection('enrollments').load()).toEqual([])
  })

  it('a pending token with a long timeout is kept', () => {
    const pending = enrollments.create('a', 'identity-1', 86_400)
    enrollments.sweep(Date.now() + 60 * MINUTE)
    expect(enrollments.stateOf(pending)).toBe('pending')
  })
})
