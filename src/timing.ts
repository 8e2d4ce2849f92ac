/**
 * Resolves after `ms`, or earlier when `wakeOn` fires on the document; rejects with the abort
 * reason as soon as `signal` aborts. Every listener and timer is removed either way, so a
 * long-lived signal does not collect listeners over many polls.
 */
export function sleep(ms: number, signal: AbortSignal, wakeOn?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const finish = (error?: unknown) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', abort)
      if (wakeOn) document.removeEventListener(wakeOn, wake)
      error ? reject(error) : resolve()
    }
    const abort = () => finish(signal.reason)
    const wake = () => finish()
    const timer = setTimeout(wake, ms)
    if (wakeOn) document.addEventListener(wakeOn, wake)
    signal.aborted ? abort() : signal.addEventListener('abort', abort)
  })
}
