// Path matching shared by the mock's servers: a list of patterns, each with a handler per method.
import { HttpProblem } from './problem.js'

export interface Route<H> {
  /** Anchored pattern; its capture groups become the (decoded) params. */
  pattern: RegExp
  /** A handler per method; `*` takes every method, for handlers that must see all requests. */
  methods: Partial<Record<string, H>>
}

export interface RouteMatch<R> {
  route: R
  params: string[]
}

/** The first route whose pattern matches, or undefined; a param that is not valid percent-encoding matches nothing. */
export function matchRoute<R extends Route<unknown>>(routes: readonly R[], pathname: string): RouteMatch<R> | undefined {
  for (const route of routes) {
    const match = route.pattern.exec(pathname)
    if (!match) continue
    try {
      return { route, params: match.slice(1).map((part) => decodeURIComponent(part ?? '')) }
    } catch {
      return undefined
    }
  }
  return undefined
}

/** The route's handler for `method`, or the 404 / 405 problem to answer instead. */
export function handlerFor<H>(match: RouteMatch<Route<H>> | undefined, method: string | undefined): H {
  if (!match) throw new HttpProblem(404, 'There is nothing at this address.')
  const handler = match.route.methods[method ?? ''] ?? match.route.methods['*']
  if (!handler) {
    const allowed = Object.keys(match.route.methods).join(', ')
    throw new HttpProblem(405, `Use ${allowed} here.`, undefined, { Allow: allowed })
  }
  return handler
}

/**
 * The request target as a URL, for its query; a target that is not a path (`*`, absolute form
 * with junk) is a 400. Leading slashes count as one: a client configured with a trailing slash in
 * its base URL asks for `//v1/...`, which means `/v1/...` (and `new URL` would read `//v1` as a
 * host). Route on `requestPath`, not on this URL's pathname, which has dot segments resolved.
 */
export function requestUrl(rawUrl: string | undefined, base: string): URL {
  if (!rawUrl?.startsWith('/')) {
    throw new HttpProblem(400, 'The request target must be a path.', {})
  }
  // Clients resolve `.` and `..` before they send (fetch, curl), so one that arrives is a raw
  // client's mistake: refused, rather than read as one resource or another.
  if (
    requestPath(rawUrl)
      .split('/')
      .some((segment) => segment === '.' || segment === '..')
  ) {
    throw new HttpProblem(400, 'The path has a "." or ".." segment: percent-encode it (%2E) to mean it as data.', {})
  }
  try {
    return new URL(withOneLeadingSlash(rawUrl), base)
  } catch {
    throw new HttpProblem(400, 'The request target is not a valid path.', {})
  }
}

/**
 * The path to route on: the request target's, leading slashes folded, and nothing resolved. A
 * percent-encoded dot segment (`%2E`, `%2E%2E`) stays data, as the identifier "." in
 * `/identities/%2E/authenticate`; a URL parser would fold it away, to `/identities/authenticate`,
 * another endpoint. Call after `requestUrl`, which refuses what is not a path.
 */
export const requestPath = (rawUrl: string): string => withOneLeadingSlash(rawUrl.replace(/[?#].*$/s, ''))

/** `//v1/x` and `/v1/x` are the same resource; only the leading run is folded, inner empty segments stay. */
export const withOneLeadingSlash = (path: string): string => path.replace(/^\/{2,}/, '/')
