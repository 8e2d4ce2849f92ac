// Cross-origin rules for the browser-facing endpoints: the embed runs on the integrator's origin
// and calls the service directly.
import type { OutgoingHttpHeaders } from 'node:http'

/** An Origin header is allowed when the list is empty (any origin) or names it exactly. */
export function isOriginAllowed(origin: string | undefined, allowedOrigins: readonly string[]): boolean {
  return origin === undefined || allowedOrigins.length === 0 || allowedOrigins.includes(origin)
}

/**
 * Headers for every answer of a browser-facing endpoint, errors included: without them the
 * browser hides the status and Retry-After from the embed, which then cannot tell a 429 from
 * a network failure. A refused origin gets no Allow-Origin, so the browser blocks the answer.
 */
export function corsHeaders(origin: string | undefined, allowedOrigins: readonly string[]): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { Vary: 'Origin' }
  if (origin !== undefined && isOriginAllowed(origin, allowedOrigins)) {
    headers['Access-Control-Allow-Origin'] = origin
    headers['Access-Control-Expose-Headers'] = 'Retry-After'
  }
  return headers
}

/** The extra headers of a preflight answer; the request may only add Content-Type (for the JSON body). */
export const PREFLIGHT_HEADERS: OutgoingHttpHeaders = {
  'Access-Control-Allow-Methods': 'GET, POST',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '600',
}

/** The knobs are for tests and local tools on any origin; never something to ship. */
export const KNOB_CORS_HEADERS: OutgoingHttpHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After',
}
