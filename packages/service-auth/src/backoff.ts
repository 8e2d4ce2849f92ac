import { SECOND } from './timing.js'

/** The longest our own backoff waits. */
const LONGEST_BACKOFF = 30 * SECOND
/** The longest Retry-After honoured: a hostile or confused header must not park the widget for days. */
const LONGEST_RETRY_AFTER = 10 * 60 * SECOND

/**
 * Delay before retry number `attempt` (0-based): exponential from about 1 s up to 30 s, with
 * jitter, so pages recovering from one outage do not come back in lockstep. A `retryAfter`
 * (in ms, 0 for none) is honoured when it asks for longer, up to 10 minutes.
 */
export const backoff = (retryAfter: number, attempt: number): number =>
  Math.max(Math.min(retryAfter, LONGEST_RETRY_AFTER), Math.min(LONGEST_BACKOFF, SECOND * 2 ** attempt) * (0.7 + 0.3 * Math.random()))
