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
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', aborted)
        resolve()
      },
      Math.max(ms, 0),
    )
    // Aborted already (say, destroyed from an event listener a moment ago): no timer lingers.
    // (A signal aborts once, so the listener runs once at most.)
    if (signal.aborted) aborted()
    else signal.addEventListener('abort', aborted)
  })

/**
 * Resolves in a later task, so that a widget mounted and destroyed in one task (React StrictMode's
 * double mount) never sends its first request. A user-blocking task where the browser has a
 * scheduler (Chromium, Firefox): a page that is still loading runs its ordinary tasks first,
 * which held a message back by 20 to 30 ms of a first code on a 2-core machine (BENCHMARKS.md).
 * Elsewhere a message. Not a timer: the fake clocks of tests (and of Playwright's page.clock)
 * hold timers back, but not a page's own tasks.
 */
export const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const message = () => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => {
        channel.port1.close()
        resolve()
      }
      channel.port2.postMessage(0)
    }
    // The window's, read once and called as read: a page's own `scheduler` (the DHTMLX calendar
    // has one, as a global or a top-level `let` that hides the window's from bare names) may have
    // no postTask. A scheduler polyfill queues a task as the browser's does. Should the browser
    // refuse the task (it does in a detached window), a message comes instead.
    const tasks = self.scheduler
    if (typeof tasks?.postTask == 'function') tasks.postTask(resolve, { priority: 'user-blocking' }).catch(message)
    else message()
  })
