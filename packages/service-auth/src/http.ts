import type { ErrorReason } from './events.js'
import { SECOND } from './timing.js'

/** What a failed request turns into: plain data, told apart from aborts and bugs by its `reason`. */
export interface Failure {
  reason: ErrorReason
  /** The HTTP status, or NO_RESPONSE. */
  status: number
  /** Retry-After in ms (0 without one); read in its delta-seconds form, the one services send with 429 and 503. */
  retryAfter: number
  /** The problem JSON's `detail` of a refusal, for the integrator ("The API key is not known."). */
  explanation?: string
  /** What is wrong with the markup or options, for a `config` failure. */
  problem?: string
  /** The field of an answer that is missing or of no use, for a `response` failure. */
  field?: string
}

/**
 * The status of a failure that had no HTTP response: the network failed, time ran out, the
 * markup is wrong, or this script has a bug. Named as turbo's SystemStatusCode names its own.
 */
export const NO_RESPONSE = 0

/** How long any request may take: a connection a proxy holds open must not freeze the widget. */
const REQUEST_LIMIT = 30 * SECOND

export const failure = (reason: ErrorReason, res?: Response, body?: { detail?: unknown }): Failure => ({
  reason,
  status: res ? res.status : NO_RESPONSE,
  // An HTTP-date or garbage reads as 0, which leaves the delay to our own backoff.
  retryAfter: Number(res?.headers.get('retry-after')) * SECOND || 0,
  explanation: typeof body?.detail == 'string' ? body.detail : undefined,
})

/** A `config` failure: the markup or options are at fault, as `problem` says. */
export const misconfigured = (problem: string): Failure => ({ ...failure('config'), problem })

export const isFailure = (error: unknown): error is Failure => !!(error as Failure | undefined)?.reason

/** What `read` throws for a 2xx answer (`res`) that it cannot use, naming the field at fault. */
export const malformed = (res: Response, field: string): Failure => ({ ...failure('response', res), field })

export interface Request<T, Body extends object = Record<string, unknown>> {
  url: string | URL
  /** Its `signal` is required: aborting it rejects the request with the signal's reason. */
  init: RequestInit & { signal: AbortSignal }
  /**
   * What a 2xx answer means, from its JSON body and the response. `Body` is the shape the other
   * side promises, which nothing has checked: any field may be missing (a body that is not a
   * JSON object reads as an empty one), or of another type, so `read` checks each field it uses,
   * and throws a Failure for an answer it cannot use (`malformed()`).
   */
  read: (body: Partial<Body>, res: Response) => T
  /** Statuses besides 2xx that are answers rather than failures, and what each means. */
  outcomes?: Record<number, T>
  /** Why another status fails. */
  refused: (status: number) => ErrorReason
  /** How long the request may take, in ms; 30 s at most, and by default. */
  limit?: number
}

/**
 * fetch(), and what the answer means. A network error, or no answer within the limit, fails as
 * `network`; a failure is thrown as a Failure. What `read` and `refused` throw is passed on as it
 * is: a Failure they mean, or a bug of ours, which must not pass for the network's (the widget
 * would retry it for good, as "Reconnecting…") but reach the widget as `internal`.
 */
export const send = async <T, Body extends object = Record<string, unknown>>({
  url,
  init,
  read,
  outcomes = {},
  refused,
  limit = REQUEST_LIMIT,
}: Request<T, Body>): Promise<T> => {
  // On a timer of the page's own (not AbortSignal.timeout), which tests and fake clocks control too.
  const { signal } = init
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), Math.min(limit, REQUEST_LIMIT))
  let res: Response
  let json: unknown
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.any([signal, timeout.signal]) })
    // Read whatever the status: a body left unread keeps the connection (and the request's
    // resource timing entry) open. A body that cannot be read is no JSON, unless the caller aborted.
    json = await res.json().catch(() => signal.throwIfAborted())
  } catch {
    // Running out of time is a network failure like any other.
    throw signal.aborted ? signal.reason : failure('network')
  } finally {
    clearTimeout(timer)
  }
  const body: Partial<Body> = json && typeof json == 'object' ? json : {}
  if (res.status in outcomes) return outcomes[res.status]
  if (!res.ok) throw failure(refused(res.status), res, body)
  return read(body, res)
}
