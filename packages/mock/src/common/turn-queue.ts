// CPU work (rendering a QR code) run one task per turn of the event loop, in order. Every
// request the service serves shares one event loop: a burst of challenge creations, each with
// two images to render, would otherwise hold every knob and status answer until the whole burst
// is drawn, up to seconds under a CI farm's load (bench/farm.ts). Here a request that only waits
// for I/O is served between two tasks: it waits for one task at most, about a millisecond.
//
// Meant as one queue per process (qr-images.ts holds the service's), because the event loop is
// one per process. It starts no timer until a task is queued, and none is left once it is empty.
export class TurnQueue {
  readonly #tasks: (() => void)[] = []
  #scheduled = false

  /** Runs `task` in a turn of its own, after the tasks queued before it; resolves or rejects as it does. */
  run<T>(task: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#tasks.push(() => {
        try {
          resolve(task())
        } catch (error) {
          reject(error)
        }
      })
      this.#schedule()
    })
  }

  #schedule(): void {
    if (this.#scheduled || this.#tasks.length === 0) return
    this.#scheduled = true
    // An immediate queued while immediates run waits for the next turn: after the poll phase,
    // where the requests that arrived meanwhile are read and answered.
    setImmediate(() => {
      this.#scheduled = false
      this.#tasks.shift()!()
      this.#schedule()
    })
  }
}
