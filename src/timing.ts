/**
 * Resolves after `ms`; rejects with the abort reason as soon as `signal` aborts. The timer goes
 * either way. The handler is the signal's `onabort`, which holds one at a time, so a long-lived
 * signal collects nothing over many polls (one left by a settled sleep does nothing); it takes
 * fewer bytes than adding and removing a listener. So a signal serves one sleep at a time, as the
 * session's loop needs.
 */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer)
      signal.aborted ? reject(signal.reason) : resolve()
    }
    // A negative delay is as good as 0. (Not below -2^31: browsers convert the delay to a 32-bit
    // integer, so a larger negative one wraps around to days. -Infinity reads as 0.)
    const timer = setTimeout(done, ms)
    signal.onabort = done
    // Aborted already (say, destroyed from an event listener a moment ago): no timer lingers.
    if (signal.aborted) done()
  })
