// The first retry comes after about a second, doubling from there up to half a minute.
const FIRST_DELAY = 1000
const MAX_DELAY = 30_000
// The longest Retry-After honoured: a hostile or confused header must not park the widget for days.
const MAX_RETRY_AFTER = 10 * 60_000

/**
 * Delay before retry number `attempt` (0-based): exponential from about 1 s up to 30 s, with
 * jitter (70 to 100 % of the step), so pages recovering from one outage do not come back in
 * lockstep. A `retryAfter` (in ms, 0 for none) is honoured when it asks for longer, up to 10 minutes.
 */
export const backoff = (retryAfter: number, attempt: number): number =>
  Math.max(Math.min(retryAfter, MAX_RETRY_AFTER), Math.min(MAX_DELAY, FIRST_DELAY * 2 ** attempt) * (0.7 + 0.3 * Math.random()))
