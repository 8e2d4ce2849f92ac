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
    // Clamped: browsers convert the delay to a 32-bit integer, so a large negative one (the
    // session's next poll after a tab was hidden for weeks) would wrap around to days.
    const timer = setTimeout(done, Math.max(ms, 0))
    signal.onabort = done
    // Aborted already (say, destroyed from an event listener a moment ago): no timer lingers.
    if (signal.aborted) done()
  })

/**
 * Resolves in a later task, so that a widget mounted and destroyed in one task (React StrictMode's
 * double mount) never sends its first request. A message, not a timer: the fake clocks of tests
 * (and of Playwright's page.clock) hold timers back, but not a page's own tasks.
 */
export const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(0)
  })
