// The rate limits (spec section 7: 429), two budgets that never touch each other. Signed
// server calls count per key. Unsigned challenge creations count per key and client address:
// the key is public (it is in every login page), so a bot that reads it must not be able to
// spend the integrator's own budget, nor that of other people signing in from elsewhere.
// Fixed windows: simple to reason about in tests, and Retry-After says exactly when the window
// opens again.
import { HttpProblem } from '@service-auth/http'
import { rateLimitBucket } from './client-address.js'

export interface RateLimit {
  /** Signed requests per window and key; 0 turns the limit off. */
  rateLimit: number
  /** Unsigned challenge creations per window, key and client address; 0 turns the limit off. */
  browserRateLimit: number
  rateLimitWindowMs: number
}

export class RateLimiter {
  readonly #signed = new FixedWindows()
  readonly #browser = new FixedWindows()

  constructor(private readonly limit: () => RateLimit) {}

  /** Counts one signed request of `key` (after its signature checked out); throws the 429 once its budget is spent. */
  takeSigned(key: string, now = Date.now()): void {
    const { rateLimit, rateLimitWindowMs } = this.limit()
    const retryAfter = this.#signed.take(key, rateLimit, rateLimitWindowMs, now)
    if (retryAfter === undefined) return
    throw tooMany(`This API key made more than ${rateLimit} signed requests in ${rateLimitWindowMs / 1000} s.`, retryAfter)
  }

  /**
   * Counts one unsigned challenge creation with `key` from `address` (an IPv6 address by its
   * /64, see client-address.ts); throws the 429 once that budget is spent.
   */
  takeBrowser(key: string, address: string, now = Date.now()): void {
    const { browserRateLimit, rateLimitWindowMs } = this.limit()
    const retryAfter = this.#browser.take(JSON.stringify([key, rateLimitBucket(address)]), browserRateLimit, rateLimitWindowMs, now)
    if (retryAfter === undefined) return
    throw tooMany(`More than ${browserRateLimit} challenges were created with this API key from this address in ${rateLimitWindowMs / 1000} s.`, retryAfter)
  }

  clear(): void {
    this.#signed.clear()
    this.#browser.clear()
  }

  /** Forgets the windows of one API key (a freed one: key-knobs.ts). */
  forget(key: string): void {
    this.#signed.forget((bucket) => bucket === key)
    const browserBucket = JSON.stringify([key, '']).slice(0, -3)
    this.#browser.forget((bucket) => bucket.startsWith(browserBucket))
  }
}

const tooMany = (why: string, retryAfter: number) =>
  new HttpProblem(429, `${why} Try again in ${retryAfter} s.`, undefined, { 'Retry-After': String(retryAfter) })

class FixedWindows {
  readonly #windows = new Map<string, { startedAt: number; count: number }>()
  #sweptAt = 0

  /** Counts one request of `bucket`: undefined while within `limit`, else the seconds until its window opens again. */
  take(bucket: string, limit: number, windowMs: number, now: number): number | undefined {
    if (limit === 0) return undefined
    let window = this.#windows.get(bucket)
    if (!window || now - window.startedAt >= windowMs) {
      this.#sweep(windowMs, now)
      window = { startedAt: now, count: 0 }
      this.#windows.set(bucket, window)
    }
    window.count += 1
    if (window.count <= limit) return undefined
    return Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000))
  }

  clear(): void {
    this.#windows.clear()
  }

  forget(bucketOf: (bucket: string) => boolean): void {
    for (const bucket of this.#windows.keys()) {
      if (bucketOf(bucket)) this.#windows.delete(bucket)
    }
  }

  /**
   * Forgets the windows that are over, at most once a window: client addresses are anyone's to
   * choose by the thousand, and the map must not keep every one of them.
   */
  #sweep(windowMs: number, now: number): void {
    if (now - this.#sweptAt < windowMs) return
    this.#sweptAt = now
    for (const [bucket, window] of this.#windows) {
      if (now - window.startedAt >= windowMs) this.#windows.delete(bucket)
    }
  }
}
