// How the test kit says why a request of its own got no answer: the same words from the knob
// client and the controller check, which both reach the mock.

/**
 * How long the test kit waits for the mock to answer a request of its own. Every knob answers at
 * once (a hold or a delay is queued, not waited for), so this bounds only a mock that took the
 * connection and never answered (a stopped process, a proxy in between): the test then fails
 * with what happened, rather than hang until its runner's own limit, naming nothing.
 */
export const MOCK_ANSWER_TIMEOUT_MS = 30_000

/**
 * What the kit says of its `request` (such as `POST /__knobs/sign`) to the mock at `url` that
 * failed with `error` (fetch's): it ran out of time (AbortSignal.timeout), or it could not reach
 * the mock. Each caller throws it as its own error (KnobError, ControllerCheckError).
 */
export function noAnswer(url: string, request: string, error: unknown): string {
  if ((error as Error | undefined)?.name === 'TimeoutError') {
    return `the mock service at ${url} did not answer ${request} within ${MOCK_ANSWER_TIMEOUT_MS / 1000} s: is the process at that address the mock, and is it running?`
  }
  return `the mock service at ${url} cannot be reached (${whyUnreached(error)})`
}

/**
 * Why a fetch got no answer, for a message. fetch says only "fetch failed"; its cause says why: a
 * code (ECONNREFUSED, ...), or only a message ("bad port", for a port fetch refuses to connect
 * to, as browsers do).
 */
function whyUnreached(error: unknown): string {
  const cause = ((error as Error).cause as { code?: string; message?: string } | undefined) ?? {}
  return cause.code ?? cause.message ?? (error as Error).message
}
