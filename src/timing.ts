/** A second, in the ms that timers and Retry-After work in. */
export const SECOND = 1000

/**
 * Resolves after `ms`; rejects with the abort reason as soon as `signal` aborts. Either way the
 * timer and the listener go, so a long-lived signal serves any number of sleeps.
 */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    // Clamped: browsers convert the delay to a 32-bit integer, so a large negative one (the
    // widget's next poll after a tab was hidden for weeks) would wrap around to days.
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted)
      resolve()
    }, Math.max(ms, 0))
    // Aborted already (say, destroyed from an event listener a moment ago): no timer lingers.
    // (A signal aborts once, so the listener runs once at most.)
    if (signal.aborted) aborted()
    else signal.addEventListener('abort', aborted)
  })

/**
 * Resolves in a later task, so that a widget mounted and destroyed in one task (React StrictMode's
 * double mount) never sends its first request. A user-blocking task where the browser has a
 * scheduler (Chromium, Firefox): a page that is still loading runs its ordinary tasks first,
 * which held a message back by about 20 ms of a first code on a 2-core machine (BENCHMARKS.md).
 * Elsewhere a message. Not a timer: the fake clocks of tests (and of Playwright's page.clock)
 * hold timers back, but not a page's own tasks.
 */
export const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    // Checked for the method, not the global: a page may have a `scheduler` of its own (the
    // DHTMLX calendar's, say), which is not the browser's.
    if (typeof self.scheduler?.postTask == 'function') {
      void scheduler.postTask(resolve, { priority: 'user-blocking' })
      return
    }
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(0)
  })
