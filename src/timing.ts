/**
 * Resolves after `ms`; rejects with the abort reason as soon as `signal` aborts. The timer and
 * the listener go either way, so a long-lived signal collects no listeners over many polls.
 */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      signal.aborted ? reject(signal.reason) : resolve()
    }
    // Clamped: browsers convert the delay to a 32-bit integer, so a large negative one wraps
    // around to days.
    const timer = setTimeout(done, Math.max(ms, 0))
    signal.addEventListener('abort', done)
    // Aborted already (say, destroyed from an event listener a moment ago): no timer lingers.
    if (signal.aborted) done()
  })

/**
 * Resolves when the page is shown again. Aborting `signal` drops the listener and leaves the
 * promise pending for good, which is fine: nothing else refers to the aborted run.
 */
export const untilVisible = (signal: AbortSignal): Promise<unknown> =>
  new Promise((resolve) => document.addEventListener('visibilitychange', resolve, { once: true, signal }))
