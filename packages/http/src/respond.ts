// Small writers for the non-error responses. Each one is a no-op once the response is gone,
// because a long poll or a delayed request may outlive the client that sent it.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'

const isGone = (res: ServerResponse) => res.headersSent || res.destroyed

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  sendBytes(res, status, JSON.stringify(body), 'application/json; charset=utf-8', headers)
}

export function sendBytes(res: ServerResponse, status: number, body: string | Buffer, contentType: string, headers: OutgoingHttpHeaders = {}): void {
  if (isGone(res)) return
  res.writeHead(status, {
    'Cache-Control': 'no-store',
    ...headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
  })
  res.end(body)
}

export function sendEmpty(res: ServerResponse, status: number, headers: OutgoingHttpHeaders = {}): void {
  if (isGone(res)) return
  res.writeHead(status, { 'Cache-Control': 'no-store', ...headers })
  res.end()
}

export function redirect(res: ServerResponse, status: 302 | 303, location: string, headers: OutgoingHttpHeaders = {}): void {
  sendEmpty(res, status, { ...headers, Location: location })
}
