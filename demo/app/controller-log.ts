// Every request the controller received, so tests can assert exactly what the embed sent it.
// Anyone can read it (GET /__app/controller-log), so credentials appear only as fingerprints:
// a test compares the fingerprint of the token it holds; a reader learns nothing usable.
import type { IncomingHttpHeaders } from 'node:http'
import { BoundedList, fingerprint, fingerprintCookies, fingerprintCredential } from '@service-auth/http'

export interface ControllerClaims {
  jti: string
  sub: string
  /** A fingerprint: the one-time code is a secret. */
  otp: string
}

export interface ControllerLogEntry {
  /**
   * The headers that matter to the hand-over; null when absent. The token headers and the
   * cookies' values are fingerprints (see fingerprint.ts), never the values themselves.
   */
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
    const header = (name: string, redact: (value: string) => string = (value) => value) => {
      const value = headers[name]
      return value === undefined ? null : redact(Array.isArray(value) ? value.join(', ') : value)
    }
    const entry: ControllerLogEntry = {
      headers: {
        accept: header('accept'),
        'x-requested-with': header('x-requested-with'),
        'x-service-auth': header('x-service-auth', fingerprint),
        authorization: header('authorization', fingerprintCredential),
        cookie: header('cookie', fingerprintCookies),
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

  /** What the controller learnt from a token that checked out; the one-time code as a fingerprint. */
  claimed(entry: ControllerLogEntry, claims: { challengeId: string; identifier: string; otp: string }): void {
    entry.valid = true
    entry.claims = { jti: claims.challengeId, sub: claims.identifier, otp: fingerprint(claims.otp) }
  }

  entries(): ControllerLogEntry[] {
    return this.#entries.list()
  }

  clear(): void {
    this.#entries.clear()
  }
}
