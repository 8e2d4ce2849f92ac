// Reading and parsing request bodies, bounded, with the 4xx each kind of bad input deserves.
import type { IncomingMessage } from 'node:http'
import { HttpProblem, fieldProblem } from './problem.js'

/** Larger bodies get 413: nothing the mock accepts comes close. */
export const BODY_LIMIT = 16 * 1024

/** The client went away before its body arrived; there is nobody left to answer. */
export class ClientGone extends Error {}

/** The body as text. */
export async function readBody(req: IncomingMessage, limit = BODY_LIMIT): Promise<string> {
  return (await readBodyBytes(req, limit)).toString('utf8')
}

/** The body's bytes as they arrived: what a signed request's bodyHash covers (spec section 5). */
export function readBodyBytes(req: IncomingMessage, limit = BODY_LIMIT): Promise<Buffer> {
  const tooLarge = () => new HttpProblem(413, `The request body is larger than ${limit} bytes.`, undefined, { Connection: 'close' })
  if (Number(req.headers['content-length']) > limit) {
    // Answer at once; the connection closes after the answer, so the rest is never read.
    req.resume()
    return Promise.reject(tooLarge())
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const settle = (action: () => void) => {
      if (settled) return
      settled = true
      action()
    }
    req.on('data', (chunk: Buffer) => {
      if (settled) return
      size += chunk.length
      if (size > limit) settle(() => reject(tooLarge()))
      else chunks.push(chunk)
    })
    req.on('end', () => settle(() => resolve(Buffer.concat(chunks))))
    req.on('error', () => settle(() => reject(new ClientGone())))
    req.on('close', () => settle(() => reject(new ClientGone())))
  })
}

/** True for `application/json` and any `+json` type, whatever parameters follow. */
export function isJsonContentType(contentType: string | undefined): boolean {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  return mediaType === 'application/json' || /^application\/[\w.-]+\+json$/.test(mediaType)
}

/**
 * The body as a JSON object. `allowEmpty` treats an empty body as `{}` whatever its content
 * type, for endpoints whose fields are all optional.
 */
export function parseJsonObject(body: string, contentType: string | undefined, { allowEmpty = false } = {}): Record<string, unknown> {
  if (allowEmpty && body.trim() === '') return {}
  const value = parseJson(body, contentType)
  if (!isJsonObject(value)) throw fieldProblem('body', 'malformedBody', 'The body must be a JSON object.')
  return value
}

/** The body as a JSON array, for the endpoints that take a list. */
export function parseJsonArray(body: string, contentType: string | undefined): unknown[] {
  const value = parseJson(body, contentType)
  if (!Array.isArray(value)) throw fieldProblem('body', 'malformedBody', 'The body must be a JSON list.')
  return value
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function parseJson(body: string, contentType: string | undefined): unknown {
  if (!isJsonContentType(contentType)) {
    throw new HttpProblem(415, `The body must be application/json, not ${contentType ? `"${contentType}"` : 'missing'}.`)
  }
  try {
    return JSON.parse(body)
  } catch {
    throw fieldProblem('body', 'malformedBody', 'The body is not valid JSON.')
  }
}

/** The fields of an HTML form's POST (`application/x-www-form-urlencoded`); 415 for anything else. */
export function parseForm(body: string, contentType: string | undefined): URLSearchParams {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (mediaType !== 'application/x-www-form-urlencoded') {
    throw new HttpProblem(415, `The body must be a form (application/x-www-form-urlencoded), not ${contentType ? `"${contentType}"` : 'missing'}.`)
  }
  return new URLSearchParams(body)
}
