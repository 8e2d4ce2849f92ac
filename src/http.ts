import type { ErrorReason } from './events.js'

/** What a failed request turns into: plain data, told apart from aborts and bugs by its `reason`. */
export interface Failure {
  reason: ErrorReason
  status: number
  /** Retry-After in ms (0 without one); read in its delta-seconds form, the one services send with 429 and 503. */
  retryAfter: number
}

export const failure = (reason: ErrorReason, res?: Response): Failure => ({
  reason,
  status: res?.status || 0,
  // An HTTP-date or garbage reads as 0, which leaves the delay to our own backoff.
  retryAfter: +res?.headers.get('retry-after')! * 1000 || 0,
})

export const isFailure = (error: any): error is Failure => !!error?.reason

/**
 * fetch() (no-store, unless the request has a body), then hands the JSON body of a 2xx response (an empty object when not JSON, or null)
 * and the response to `read`. What `read` cannot use (it returns undefined) fails as `malformed`,
 * and any other status as `refused(status)`. A network error becomes a `network` Failure;
 * aborting `signal` rejects with its reason.
 */
export const send = async <T>(
  url: string | URL,
  init: RequestInit,
  signal: AbortSignal,
  read: (body: any, res: Response) => T | undefined,
  refused: (status: number) => ErrorReason,
  malformed: ErrorReason = 'response',
): Promise<T> => {
  try {
    // GETs (the status polls, the controller call) must never come from an HTTP cache. A POST
    // never does, and keeps the default mode on purpose: under no-store Chromium skips its CORS
    // preflight cache, so every new code would cost a preflight and a POST, not one request.
    const res = await fetch(url, { ...init, cache: init.body ? void 0 : 'no-store', signal })
    // Read whatever the status: a body left unread keeps the connection (and the request's
    // resource timing entry) open.
    const body = (await res.json().catch(() => {})) || {}
    if (res.ok) {
      const result = read(body, res)
      if (result !== undefined) return result
    }
    throw failure(res.ok ? malformed : refused(res.status), res)
  } catch (error) {
    throw signal.aborted ? signal.reason : isFailure(error) ? error : failure('network')
  }
}
