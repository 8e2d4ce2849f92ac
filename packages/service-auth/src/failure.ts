// The one failure type of the browser half, as server/ has its own Error subclasses: whatever
// fails (a request, an answer, the markup, the QR image) is thrown and reported as one of these,
// told apart from aborts and bugs by its class.
import type { ErrorReason, EventDetails } from './events.js'
import { SECOND } from './timing.js'

/**
 * The status of a failure that had no HTTP response: the network failed, time ran out, the
 * markup is wrong, the image did not load, or this script has a bug. Named as turbo's
 * SystemStatusCode names its own, rather than faking an HTTP status.
 */
export const NO_RESPONSE = 0

/**
 * A failure, as the widget reports it: `reason` and `status` go into the error event, and
 * `retryAfter` too when the widget retries by itself (`detail()`). The message, when there is
 * one, is the console line that says what went wrong and what to check; it never holds the token.
 */
export class ServiceAuthFailure extends Error {
  // Declared, and set in the constructor: fields of their own would be set twice.
  /** Why: the error event's `reason`. */
  declare readonly reason: ErrorReason
  /** The HTTP status of the answer at fault, or NO_RESPONSE. */
  declare readonly status: number
  /** Retry-After in ms (0 without one); read in its delta-seconds form, the one services send with 429 and 503. */
  declare readonly retryAfter: number
  /** That retrying by itself cannot mend it: the widget stops on the error state, with a button unless the markup is at fault. */
  declare readonly final: boolean

  constructor(reason: ErrorReason, message = '', res?: Response, final = reason == 'rejected' || reason == 'config') {
    super(message)
    this.reason = reason
    this.final = final
    this.status = res ? res.status : NO_RESPONSE
    // An HTTP-date or garbage reads as 0, which leaves the delay to our own backoff.
    this.retryAfter = Number(res?.headers.get('retry-after')) * SECOND || 0
  }

  /** The error event's detail, the one way a failure becomes one: `retryAfter` exactly when the widget retries by itself. */
  detail(retrying?: boolean): EventDetails['error'] {
    const { reason, status, retryAfter } = this
    return retrying ? { reason, status, retryAfter } : { reason, status }
  }
}

/**
 * What a reader throws for a 2xx answer (`res`) that it cannot use, naming the field at fault.
 * With what it should be (`hint`, from ': '), the page's own markup is at odds with the service,
 * which no retry mends: final. (A URL not under `data-service-api`: each retry made a new code,
 * and said the same line, for good.)
 */
export const malformed = (res: Response, field: string, hint: string | undefined = ''): ServiceAuthFailure =>
  new ServiceAuthFailure('response', `the service's ${field} is missing or invalid (${res.status})${hint}.`, res, !!hint)
