// Every request the controller received, so tests can assert exactly what the embed sent it.
import type { IncomingHttpHeaders } from 'node:http'

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
  valid: boolean
  claims: ControllerClaims | null
  /** Epoch milliseconds. */
  at: number
}

const MAX_ENTRIES = 1000

export class ControllerLog {
  #entries: ControllerLogEntry[] = []

  record(headers: IncomingHttpHeaders, url: URL, claims: ControllerClaims | null): void {
    const header = (name: string) => {
      const value = headers[name]
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
    }
    this.#entries.push({
      headers: {
        accept: header('accept'),
        'x-requested-with': header('x-requested-with'),
        'x-service-auth': header('x-service-auth'),
        authorization: header('authorization'),
        cookie: header('cookie'),
      },
      query: url.search.replace(/^\?/, ''),
      valid: claims !== null,
      claims,
      at: Date.now(),
    })
    if (this.#entries.length > MAX_ENTRIES) this.#entries.splice(0, this.#entries.length - MAX_ENTRIES)
  }

  entries(): ControllerLogEntry[] {
    return [...this.#entries]
  }

  clear(): void {
    this.#entries = []
  }
}
