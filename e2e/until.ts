// Waits on state, for runners without web-first assertions: asks `check` again until it answers
// something truthy. The bound ends a hang; it does not set a pace. A check that throws (the page
// is navigating, say) counts as "not yet", and the last error is in the timeout's message.

export interface UntilOptions {
  /** Milliseconds before giving up; default 20 s, as Playwright's expect in these tests. */
  timeout?: number
}

/** Resolves with the first truthy answer of `check`; rejects with `what`, the last answer and the last error once `timeout` has passed. */
export async function until<T>(what: string, check: () => T | Promise<T>, { timeout = 20_000 }: UntilOptions = {}): Promise<NonNullable<T>> {
  const giveUpAt = Date.now() + timeout
  let last: unknown
  let lastError: unknown
  for (;;) {
    try {
      last = await check()
      if (last) return last as NonNullable<T>
    } catch (error) {
      lastError = error
    }
    if (Date.now() > giveUpAt) {
      const seen = lastError ? ` (last error: ${lastError instanceof Error ? lastError.message : String(lastError)})` : ''
      throw new Error(`Not within ${timeout} ms: ${what}. Last seen: ${JSON.stringify(last)}${seen}`)
    }
    // A breath between asks, so polling a page or a service does not crowd out what it waits for.
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
