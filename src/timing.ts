/**
 * Resolves after `ms`; rejects with the abort reason as soon as `signal` aborts. The timer goes
 * either way. The handler is the signal's `onabort`, which holds one handler at a time: a run's
 * signal serves one sleep after another for as long as the widget runs, and collects nothing
 * over thousands of polls (the handler a settled sleep leaves does nothing).
 */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer)
      if (signal.aborted) reject(signal.reason)
      else resolve()
    }
    // Clamped: browsers convert the delay to a 32-bit integer, so a large negative one (the
    // widget's next poll after a tab was hidden for weeks) would wrap around to days.
    const timer = setTimeout(done, Math.max(ms, 0))
    signal.onabort = done
    // Aborted already (say, destroyed from an event listener a moment ago): no timer lingers.
    if (signal.aborted) done()
  })
