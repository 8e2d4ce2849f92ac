// What the service received, so tests can assert what the embed sent (headers, bodies, order).
import type { IncomingMessage } from 'node:http'
import { BoundedList } from '../../common/bounded-list.ts'

export interface LoggedRequest {
  method: string
  /** Path and query, as requested. */
  path: string
  origin: string | null
  authorization: string | null
  contentType: string | null
  body: string
  /** Epoch milliseconds. */
  at: number
}

// Enough for any one test; the oldest entries go first.
const MAX_ENTRIES = 1000

export class RequestLog {
  #entries = new BoundedList<LoggedRequest>(MAX_ENTRIES)

  /** Logs the request as it arrives; the caller fills in `body` once it has been read. */
  record(req: IncomingMessage, url: URL): LoggedRequest {
    const entry: LoggedRequest = {
      method: req.method ?? '',
      path: url.pathname + url.search,
      origin: req.headers.origin ?? null,
      authorization: req.headers.authorization ?? null,
      contentType: req.headers['content-type'] ?? null,
      body: '',
      at: Date.now(),
    }
    this.#entries.add(entry)
    return entry
  }

  entries(): LoggedRequest[] {
    return this.#entries.list()
  }

  clear(): void {
    this.#entries.clear()
  }
}
