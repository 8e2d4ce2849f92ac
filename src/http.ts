import type { ErrorReason } from './events'

/** What a failed request turns into: plain data, told apart from aborts and bugs by its `reason`. */
export interface Failure {
  reason: ErrorReason
  status: number
  /** Retry-After in ms; read in its delta-seconds form, the one services send with 429 and 503. */
  retryAfter?: number
}

export const failure = (reason: ErrorReason, res?: Response): Failure => ({
  reason,
  status: res ? res.status : 0,
  // An HTTP-date or garbage reads as 0, which leaves the delay to our own backoff.
  retryAfter: res && +res.headers.get('Retry-After')! * 1000 || 0,
})

export const isFailure = (error: any): error is Failure => !!error?.reason

/**
 * fetch(), then hands the response and its JSON body (undefined when not JSON) to `read`.
 * A network error becomes a `network` Failure; aborting `signal` rejects with its reason.
 */
export async function send<T>(url: string | URL, init: RequestInit, signal: AbortSignal, read: (res: Response, body: any) => T): Promise<T> {
  try {
    const res = await fetch(url, { ...init, cache: 'no-store', signal })
    return read(res, await res.json().catch(() => {}))
  } catch (error) {
    throw signal.aborted ? signal.reason : isFailure(error) ? error : failure('network')
  }
}
