// RFC 7807 problem details: the one shape every error response of the mock service takes.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import { ErrorCode, type ErrorKind } from './error-codes.js'

export interface FieldError {
  code: string
  message: string
}

export type FieldErrors = Record<string, FieldError[]>

/** Thrown by handlers; the server turns it into a problem response. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: FieldErrors,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail)
  }
}

/** A 400 about one field, the shape the spec shows for authType on challenge creation. */
export function fieldProblem(field: string, kind: ErrorKind, message: string): HttpProblem {
  return new HttpProblem(400, 'The submitted data is invalid.', { [field]: [{ code: ErrorCode[kind], message }] })
}

export function problemBody(status: number, detail: string, instance: string, errors?: FieldErrors) {
  return {
    // A documentation address per status, as the spec asks for a URL in `type`.
    type: `https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Status/${status}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    instance,
    // The spec promises `errors` on every 400, so a 400 without field errors still has the key.
    ...(errors || status === 400 ? { errors: errors ?? {} } : {}),
  }
}

/** The problem's `instance`: the request's path; a target that is none (`*`, an absolute URL) is refused for that, and names `/`. */
export function problemInstance(req: IncomingMessage): string {
  const target = req.url ?? '/'
  return target.startsWith('/') ? target.split('?')[0]! : '/'
}

export function sendProblem(res: ServerResponse, problem: HttpProblem, instance: string): void {
  if (res.headersSent || res.destroyed) return
  const body = JSON.stringify(problemBody(problem.status, problem.detail, instance, problem.errors))
  res.writeHead(problem.status, {
    ...problem.headers,
    'Content-Type': 'application/problem+json',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
  })
  res.end(body)
}
