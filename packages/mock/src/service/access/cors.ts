// Cross-origin rules for the browser-facing endpoints (challenge creation, status, images): the
// embed runs on the integrator's origin and calls the service directly. The server-side API
// answers no CORS headers at all, so no page can call it with a browser's help.
import type { OutgoingHttpHeaders } from 'node:http'

/**
 * Headers for every answer of a browser-facing endpoint, errors included: without them the
 * browser hides the status and Retry-After from the embed, which then cannot tell a 429 from
 * a network failure. A refused origin gets no Allow-Origin, so the browser blocks the answer.
 */
export function corsHeaders(origin: string | undefined, allowed: boolean): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { Vary: 'Origin' }
  if (origin !== undefined && allowed) {
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
