// What the service received, so tests can assert what the embed sent (headers, bodies, order).
// The knobs hand it to anyone they answer, so it keeps no credential in readable form: polling
// secrets, request tokens and one-time passwords appear as fingerprints (`sha256:` and 12 hex
// digits, common/fingerprint.ts), enough to tell them apart or to check one a test holds.
import type { IncomingMessage } from 'node:http'
import { BoundedList, fingerprint, fingerprintCredential, requestPath } from '@service-auth/http'
import { POLL_SECRET_PARAM } from '../service/challenges/challenge-status.js'

export interface LoggedRequest {
  method: string
  /** Path and query, as requested; the polling secret (`?secret=`) as a fingerprint. */
  path: string
  origin: string | null
  /** The signed request's token as a fingerprint, after its `Bearer ` when it has one. */
  authorization: string | null
  contentType: string | null
  /** The body as text; an `"otp"` in it as a fingerprint. */
  body: string
  /** Epoch milliseconds. */
  at: number
}

// Enough for any one test; the oldest entries go first.
const MAX_ENTRIES = 1000

// The secret whatever the case of its name: a test that sends `?Secret=` still sends the secret.
const SECRET_IN_QUERY = new RegExp(`([?&]${POLL_SECRET_PARAM}=)([^&#]*)`, 'gi')
// Matched in the text rather than parsed, so a body that is not JSON is covered too, and the
// rest of the body stays as it was sent.
const OTP_IN_BODY = /("otp"\s*:\s*")((?:[^"\\]|\\.)*)"/g

export class RequestLog {
  #entries = new BoundedList<LoggedRequest>(MAX_ENTRIES)

  /** Logs the request as it arrives; the caller adds the body once it has been read (`setBody`). */
  record(req: IncomingMessage, url: URL): LoggedRequest {
    const entry: LoggedRequest = {
      method: req.method ?? '',
      path: (requestPath(req.url ?? '/') + url.search).replace(SECRET_IN_QUERY, (_, name: string, value: string) => name + fingerprint(value)),
      origin: req.headers.origin ?? null,
      authorization: req.headers.authorization === undefined ? null : fingerprintCredential(req.headers.authorization),
      contentType: req.headers['content-type'] ?? null,
      body: '',
      at: Date.now(),
    }
    this.#entries.add(entry)
    return entry
  }

  /** Keeps the body of a logged request, its one-time password as a fingerprint. */
  setBody(entry: LoggedRequest, body: string): void {
    entry.body = body.replace(OTP_IN_BODY, (_, start: string, otp: string) => `${start}${fingerprint(otp)}"`)
  }

  entries(): LoggedRequest[] {
    return this.#entries.list()
  }

  clear(): void {
    this.#entries.clear()
  }
}
