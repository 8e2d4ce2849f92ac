// How the test kit says why a request of its own got no answer: the same words from the knob
// client and the controller check, which both reach the mock.

/**
 * Why a fetch got no answer, for a message. fetch says only "fetch failed"; its cause says why: a
 * code (ECONNREFUSED, ...), or only a message ("bad port", for a port fetch refuses to connect
 * to, as browsers do).
 */
export function whyUnreached(error: unknown): string {
  const cause = ((error as Error).cause as { code?: string; message?: string } | undefined) ?? {}
  return cause.code ?? cause.message ?? (error as Error).message
}
