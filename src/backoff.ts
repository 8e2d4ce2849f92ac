/**
 * Delay before retry number `attempt` (0-based): exponential from about 1 s up to 30 s, with
 * jitter, so pages recovering from one outage do not come back in lockstep. A `retryAfter`
 * (in ms, 0 for none) is honoured when it asks for longer, up to 10 minutes: a hostile or
 * confused header must not park the widget for days.
 */
export const backoff = (retryAfter: number, attempt: number): number =>
  Math.max(Math.min(retryAfter, 6e5), Math.min(3e4, 1e3 * 2 ** attempt) * (0.7 + 0.3 * Math.random()))
