// Server-side timestamps on one clock. The demo (mock service and example app) runs in this very
// process, so Node's own HTTP instrumentation (node:diagnostics_channel) sees each request the
// moment the server parses it and each response the moment it is handed to the socket, and
// performance.now() stamps both with the clock the rest of the bench uses. Nothing in the demo
// is changed to be measured.
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'

export interface Seen {
  /** performance.now() in this process. */
  at: number
  method: string
  /** Path and query. */
  url: string
  /** The port the request came in on: tells the service from the app. */
  port: number
}

type Message = { request: IncomingMessage; response: ServerResponse }
type Watcher = { test: (seen: Seen) => boolean; hit: (seen: Seen) => void }

export class Probe {
  readonly #onStart = new Set<Watcher>()
  readonly #onFinish = new Set<Watcher>()
  readonly #start = (message: unknown) => this.#notify(this.#onStart, message as Message)
  readonly #finish = (message: unknown) => this.#notify(this.#onFinish, message as Message)

  constructor() {
    subscribe('http.server.request.start', this.#start)
    subscribe('http.server.response.finish', this.#finish)
  }

  /** Resolves with the next request to arrive that `test` accepts. */
  nextRequest(test: (seen: Seen) => boolean, timeoutMs = 10_000): Promise<Seen> {
    return this.#next(this.#onStart, test, timeoutMs, 'request')
  }

  /** Resolves when the next response that `test` accepts has been written out. */
  nextResponse(test: (seen: Seen) => boolean, timeoutMs = 10_000): Promise<Seen> {
    return this.#next(this.#onFinish, test, timeoutMs, 'response')
  }

  /** Counts arriving requests that `test` accepts until `stop()`. */
  count(test: (seen: Seen) => boolean): { readonly value: number; stop(): number } {
    let value = 0
    const watcher: Watcher = { test, hit: () => value++ }
    this.#onStart.add(watcher)
    return {
      get value() {
        return value
      },
      stop: () => {
        this.#onStart.delete(watcher)
        return value
      },
    }
  }

  close(): void {
    unsubscribe('http.server.request.start', this.#start)
    unsubscribe('http.server.response.finish', this.#finish)
  }

  #next(set: Set<Watcher>, test: (seen: Seen) => boolean, timeoutMs: number, what: string): Promise<Seen> {
    return new Promise((resolve, reject) => {
      const watcher: Watcher = {
        test,
        hit: (seen) => {
          clearTimeout(timer)
          set.delete(watcher)
          resolve(seen)
        },
      }
      const timer = setTimeout(() => {
        set.delete(watcher)
        reject(new Error(`No matching ${what} within ${timeoutMs} ms.`))
      }, timeoutMs)
      set.add(watcher)
    })
  }

  #notify(set: Set<Watcher>, { request }: Message): void {
    if (set.size === 0) return
    const seen: Seen = { at: performance.now(), method: request.method ?? '', url: request.url ?? '', port: request.socket?.localPort ?? 0 }
    for (const watcher of [...set]) if (watcher.test(seen)) watcher.hit(seen)
  }
}

/** The port of a base URL such as http://127.0.0.1:40123. */
export const portOf = (baseUrl: string): number => Number(new URL(baseUrl).port)
