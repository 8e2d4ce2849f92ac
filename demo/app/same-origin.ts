// Only this site's own pages may change anything here. A form on another site can post to
// /enrol or /logout in a signed-in person's name (SameSite=Lax keeps the session cookie off
// such posts, but enrolling needs no session); browsers say where a request comes from in
// Origin, and in Sec-Fetch-Site. Requests with neither are not a browser's: tests, curl.
import type { IncomingMessage } from 'node:http'
import { HttpProblem } from '@service-auth/http'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Throws a 403 for a request that would change something and came from another site. */
export function refuseCrossSite(req: IncomingMessage): void {
  if (SAFE_METHODS.has(req.method ?? '')) return
  const fetchSite = req.headers['sec-fetch-site']
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') throw crossSite()
  const origin = req.headers.origin
  if (origin !== undefined && !isThisSite(origin, req.headers.host)) throw crossSite()
}

function isThisSite(origin: string, host: string | undefined): boolean {
  try {
    // `null` (a sandboxed frame, a privacy-minded redirect) is no origin at all: it throws here.
    return host !== undefined && new URL(origin).host === host
  } catch {
    return false
  }
}

const crossSite = () => new HttpProblem(403, 'This comes from another site: only pages of this site may post here.')
