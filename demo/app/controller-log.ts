// Every request the controller received, so tests can assert exactly what the embed sent it.
import type { IncomingHttpHeaders } from 'node:http'
import { BoundedList } from '../common/bounded-list.ts'

export interface ControllerClaims {
  jti: string
  sub: string
  otp: string
}

export interface ControllerLogEntry {
  /** The headers that matter to the hand-over; null when absent. */
  headers: {
    accept: string | null
    'x-requested-with': string | null
    'x-service-auth': string | null
    authorization: string | null
    cookie: string | null
  }
  /** The query string, without the leading `?`. */
  query: string
  /** Whether the token checked out; false until it does. */
  valid: boolean
  claims: ControllerClaims | null
  /** What the controller answered; null until it has. */
  status: number | null
  /** Epoch milliseconds. */
  at: number
}

const MAX_ENTRIES = 1000

export class ControllerLog {
  #entries = new BoundedList<ControllerLogEntry>(MAX_ENTRIES)

  /** Records a request as it arrives; the controller fills in the claims and its answer as it goes. */
  record(headers: IncomingHttpHeaders, url: URL): ControllerLogEntry {
    const header = (name: string) => {
      const value = headers[name]
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
    }
    const entry: ControllerLogEntry = {
      headers: {
        accept: header('accept'),
        'x-requested-with': header('x-requested-with'),
        'x-service-auth': header('x-service-auth'),
        authorization: header('authorization'),
        cookie: header('cookie'),
      },
      query: url.search.replace(/^\?/, ''),
      valid: false,
      claims: null,
      status: null,
      at: Date.now(),
    }
    this.#entries.add(entry)
    return entry
  }

  entries(): ControllerLogEntry[] {
    return this.#entries.list()
  }

  clear(): void {
    this.#entries.clear()
  }
}
