import type { ErrorReason } from './events.js'

/**
 * The status of a failure with no HTTP answer behind it: a network error, a request given up
 * after its time limit, a problem in the markup or a bug. Named as turbo's SystemStatusCode names
 * its network failure; the event detail reports it as `status: 0`.
 */
export const NO_RESPONSE = 0

/** What a failed request turns into: plain data, told apart from aborts and bugs by its `reason`. */
export interface Failure {
  reason: ErrorReason
  /** The HTTP status, or NO_RESPONSE. */
  status: number
  /** Retry-After in ms (0 without one); read in its delta-seconds form, the one services send with 429 and 503. */
  retryAfter: number
  /**
   * What to tell the integrator: for `config`, the attribute at fault; for a refusal, the
   * problem `detail` the service answered with, if any ('' without).
   */
  message: string
}

export const failure = (reason: ErrorReason, res?: Response, message = ''): Failure => ({
  reason,
  status: res ? res.status : NO_RESPONSE,
  // An HTTP-date or garbage reads as 0, which leaves the delay to our own backoff.
  retryAfter: Number(res?.headers.get('retry-after')) * 1000 || 0,
  message,
})

export const isFailure = (error: unknown): error is Failure => !!(error as Failure | undefined)?.reason

/** What `read` returns for a 2xx answer it cannot use; the request then fails as `malformed`. */
export const MALFORMED = Symbol('malformed')

/** A JSON body as it arrived: nothing about it is known until it is checked. */
export type Body = Record<string, unknown>

export interface Request<T> {
  url: string | URL
  init: RequestInit
  /** Aborting it rejects with its reason (not a Failure). */
  signal: AbortSignal
  /** What a 2xx answer means, from its JSON body (an empty object when not JSON) and the response. */
  read: (body: Body, res: Response) => T | typeof MALFORMED
  /** Statuses that are answers of their own rather than failures, with their results (a status poll's 410: expired). */
  answers?: Record<number, T>
  /** The reason any other status fails with. */
  refused: (status: number) => ErrorReason
  /** The reason a 2xx that `read` cannot use fails with; `response` by default. */
  malformed?: ErrorReason
  /** How long it may take in ms, REQUEST_LIMIT at most. */
  limit?: number
}

/** How long any request may take: a connection a proxy holds open must not freeze the widget. */
const REQUEST_LIMIT = 30_000

/**
 * fetch(), then what the answer means: `read`'s result for a 2xx, an `answers` entry for its
 * status, or else a Failure. A network error, or no answer within the time limit, is a `network`
 * Failure. Aborting `signal` rejects with its reason.
 */
export const send = async <T>({ url, init, signal, read, answers, refused, malformed = 'response', limit = REQUEST_LIMIT }: Request<T>): Promise<T> => {
  // On a timer of the page's own (not AbortSignal.timeout), which tests and fake clocks control too.
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), Math.min(limit, REQUEST_LIMIT))
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.any([signal, timeout.signal]) })
    // Read whatever the status: a body left unread keeps the connection (and the request's
    // resource timing entry) open. A refusal's body is a problem whose detail is worth telling.
    const body: Body = Object((await res.json().catch(() => {})) as unknown)
    const detail = typeof body.detail == 'string' ? body.detail : ''
    if (res.ok) {
      const result = read(body, res)
      if (result !== MALFORMED) return result
      throw failure(malformed, res)
    }
    const answer = answers?.[res.status]
    if (answer !== undefined) return answer
    throw failure(refused(res.status), res, detail)
  } catch (error) {
    // Running out of time is a network failure like any other.
    throw signal.aborted ? signal.reason : isFailure(error) ? error : failure('network')
  } finally {
    clearTimeout(timer)
  }
}
