import { describe, expect, it, vi } from 'vitest'
import { backoff } from '../src/backoff.js'

const withRandom = (value: number) => vi.spyOn(Math, 'random').mockReturnValue(value)

describe('backoff', () => {
  it('waits about 0.7 to 1 s before the first retry', () => {
    withRandom(0)
    expect(backoff(0, 0)).toBe(700)
    withRandom(0.999999)
    expect(backoff(0, 0)).toBeCloseTo(1000, 0)
    expect(backoff(0, 0)).toBeLessThanOrEqual(1000)
  })

  it('doubles with each attempt', () => {
    withRandom(1)
    expect([0, 1, 2, 3, 4].map((attempt) => backoff(0, attempt))).toEqual([1000, 2000, 4000, 8000, 16000])
  })

  it('is capped at 30 s however many attempts failed', () => {
    withRandom(1)
    expect(backoff(0, 5)).toBe(30_000)
    expect(backoff(0, 50)).toBe(30_000)
    withRandom(0)
    expect(backoff(0, 50)).toBe(21_000)
  })

  it('varies with Math.random, so recovering pages do not return in lockstep', () => {
    withRandom(0.2)
    const early = backoff(0, 3)
    withRandom(0.8)
    const late = backoff(0, 3)
    expect(early).toBeCloseTo(8000 * 0.76)
    expect(late).toBeCloseTo(8000 * 0.94)
  })

  it('honours a longer Retry-After', () => {
    withRandom(1)
    expect(backoff(5000, 0)).toBe(5000)
    expect(backoff(120_000, 2)).toBe(120_000)
  })

  it('ignores a Retry-After shorter than its own delay', () => {
    withRandom(1)
    expect(backoff(2000, 3)).toBe(8000)
    expect(backoff(0, 0)).toBe(1000)
  })

  it('honours Retry-After only up to 10 minutes', () => {
    withRandom(1)
    expect(backoff(600_000, 0)).toBe(600_000)
    expect(backoff(86_400_000, 0)).toBe(600_000)
    expect(backoff(Infinity, 9)).toBe(600_000)
  })
})
