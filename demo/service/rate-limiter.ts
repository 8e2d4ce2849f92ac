// The per-key rate limit (spec section 7: 429). A fixed window per key: simple to reason about
// in tests, and Retry-After says exactly when the window opens again.
import { HttpProblem } from '../common/problem.ts'

export interface RateLimit {
  /** Requests per window and key; 0 turns the limit off. */
  rateLimit: number
  rateLimitWindowMs: number
}

export class RateLimiter {
  // Keyed by configured API keys only (callers authenticate first), so it cannot grow unbounded.
  readonly #windows = new Map<string, { startedAt: number; count: number }>()

  constructor(private readonly limit: () => RateLimit) {}

  /** Counts one request of `key`; throws the 429 once the window's budget is spent. */
  take(key: string, now = Date.now()): void {
    const { rateLimit, rateLimitWindowMs } = this.limit()
    if (rateLimit === 0) return
    let window = this.#windows.get(key)
    if (!window || now - window.startedAt >= rateLimitWindowMs) {
      window = { startedAt: now, count: 0 }
      this.#windows.set(key, window)
    }
    window.count += 1
    if (window.count <= rateLimit) return
    const retryAfter = Math.max(1, Math.ceil((window.startedAt + rateLimitWindowMs - now) / 1000))
    throw new HttpProblem(
      429,
      `This API key made more than ${rateLimit} requests in ${rateLimitWindowMs / 1000} s. Try again in ${retryAfter} s.`,
      undefined,
      { 'Retry-After': String(retryAfter) },
    )
  }

  clear(): void {
    this.#windows.clear()
  }
}
