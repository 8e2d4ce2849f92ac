// Every timer a server starts goes through one of these, so close() can clear them all at once
// and a test run never leaves a timer behind that keeps Node alive or fires into a closed server.
export class Timers {
  readonly #handles = new Set<NodeJS.Timeout>()

  set(callback: () => void, ms: number): NodeJS.Timeout {
    const handle = setTimeout(() => {
      this.#handles.delete(handle)
      callback()
    }, ms)
    handle.unref()
    this.#handles.add(handle)
    return handle
  }

  clear(handle: NodeJS.Timeout | undefined): void {
    if (!handle) return
    clearTimeout(handle)
    this.#handles.delete(handle)
  }

  /** Resolves after `ms`; never resolves if the timers are cleared first (the server is closing). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.set(resolve, ms))
  }

  clearAll(): void {
    for (const handle of this.#handles) clearTimeout(handle)
    this.#handles.clear()
  }
}
