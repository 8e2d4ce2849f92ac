import type { ErrorReason } from './events.js'

/** What a failed request turns into: plain data, told apart from aborts and bugs by its `reason`. */
export interface Failure {
  reason: ErrorReason
  status: number
  /** Retry-After in ms (0 without one); read in its delta-seconds form, the one services send with 429 and 503. */
  retryAfter: number
  /** The problem JSON's `detail` of a refusal, for the integrator ("The API key is not known."). */
  explanation?: string
}

export const failure = (reason: ErrorReason, res?: Response, body?: any): Failure => ({
  reason,
  status: res?.status || 0,
  // An HTTP-date or garbage reads as 0, which leaves the delay to our own backoff.
  retryAfter: +res?.headers.get('retry-after')! * 1000 || 0,
  explanation: typeof body?.detail == 'string' ? body.detail : undefined,
})

export const isFailure = (error: any): error is Failure => !!error?.reason

/** How long any request may take by default: a connection a proxy holds open must not freeze the widget. */
const REQUEST_LIMIT = 30_000

/**
 * fetch(), then hands the JSON body of a 2xx response (an empty object when not JSON, or null)
 * and the response to `read`. What `read` cannot use (it returns undefined) fails as `malformed`,
 * and any other status as `refused(status)`. A network error, or no answer within `limit` ms
 * (30 s at most), becomes a `network` Failure; aborting `signal` rejects with its reason.
 */
export const send = async <T>(
  url: string | URL,
  init: RequestInit,
  signal: AbortSignal,
  read: (body: any, res: Response) => T | undefined,
  refused: (status: number) => ErrorReason,
  malformed: ErrorReason = 'response',
  limit = REQUEST_LIMIT,
): Promise<T> => {
  // On a timer of the page's own (not AbortSignal.timeout), which tests and fake clocks control too.
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), Math.min(limit, REQUEST_LIMIT))
  try {
    const res = await fetch(url, {
      ...init,
      signal: AbortSignal.any([signal, timeout.signal]),
    })
    // Read whatever the status: a body left unread keeps the connection (and the request's
    // resource timing entry) open.
    const body = (await res.json().catch(() => {})) || {}
    if (res.ok) {
      const result = read(body, res)
      if (result !== undefined) return result
    }
    throw failure(res.ok ? malformed : refused(res.status), res, body)
  } catch (error) {
    // Running out of time is a network failure like any other.
    throw signal.aborted ? signal.reason : isFailure(error) ? error : failure('network')
  } finally {
    clearTimeout(timer)
  }
}
