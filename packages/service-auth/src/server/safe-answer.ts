// What the controller may send back after startSession: a location the browser can only take to
// this site or an origin the integrator named, and headers that cannot smuggle in more headers.
// Whatever goes out is what was checked: URLs are emitted as the URL parser serialises them, so a
// browser cannot read them differently from the check.
import { isHttp } from './http-url.js'

/** startSession answered something the controller will not send; the integrator's bug, not the user's. */
export class UnsafeAnswerError extends Error {
  override name = 'UnsafeAnswerError'
}

// C0 controls and DEL: the URL parser drops tabs and newlines (so `/\t/evil.example` becomes
// `//evil.example`), and CR or LF in a header starts a header of the attacker's choosing.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/
// A path whose second character is / or \ is a protocol-relative URL to another host.
const SAME_ORIGIN_PATH = /^\/(?![/\\])/
// Only a placeholder: a path is resolved against it to be serialised, then checked to stay on it.
const HERE = 'https://same-origin.invalid'
// The headers the controller writes itself, which one from startSession would override or double,
// and Location, which would take the browser past the location's check.
const OWN_HEADERS = new Set(['location', 'content-type', 'cache-control'])
// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
// Visible ASCII, space and obs-text: what Node's writeHead and fetch's Headers take without throwing.
const HEADER_VALUE = /^[\u0020-\u007e\u0080-\u00ff]*$/

/**
 * The `redirectOrigins` option as a set of origins; a TypeError for anything that is not a bare
 * http(s) origin such as `https://accounts.example`, so a typo fails on the first request.
 */
export function redirectOriginsOf(option: unknown): ReadonlySet<string> {
  if (option === undefined) return new Set()
  if (!Array.isArray(option)) throw new TypeError('redirectOrigins must be a list of origins, such as ["https://accounts.example"].')
  return new Set(
    option.map((entry) => {
      const url = typeof entry === 'string' ? parseUrl(entry) : null
      // The entry must be its origin and nothing more: a path, a query, a fragment, userinfo or a
      // control character (which the URL parser drops) leaves it unlike its origin.
      if (!url || !isHttp(url) || entry.replace(/\/$/, '').toLowerCase() !== url.origin) {
        throw new TypeError(
          `redirectOrigins: ${JSON.stringify(entry)} is not an http(s) origin such as "https://accounts.example" (no path, no trailing parts).`,
        )
      }
      return url.origin
    }),
  )
}

/**
 * The location to send: a same-origin path (`/welcome?from=qr`), or an absolute http(s) URL on one
 * of `origins`, serialised by the URL parser. Throws an UnsafeAnswerError for anything else:
 * `//evil.example`, `/\evil.example`, `https://evil.example`, `javascript:…`, control characters.
 */
export function safeLocation(location: unknown, origins: ReadonlySet<string>): string {
  if (typeof location !== 'string' || CONTROL.test(location)) {
    throw new UnsafeAnswerError('startSession returned a location that is not a string free of control characters.')
  }
  if (location.startsWith('/')) {
    const url = SAME_ORIGIN_PATH.test(location) ? parseUrl(location, HERE) : null
    const path = url?.origin === HERE ? url.pathname + url.search + url.hash : ''
    // Checked again once serialised: `/.//evil.example` serialises to `//evil.example`.
    if (!SAME_ORIGIN_PATH.test(path))
      throw new UnsafeAnswerError('startSession returned a location starting with // or /\\, which leads to another site; return a path such as /welcome.')
    return path
  }
  const url = parseUrl(location)
  if (!url || !isHttp(url) || !origins.has(url.origin) || url.username || url.password) {
    throw new UnsafeAnswerError(
      'startSession returned a location that is neither a path on this site (/welcome) nor an http(s) URL on an origin in redirectOrigins.',
    )
  }
  return url.href
}

/** startSession's headers, checked: header names, and values without CR or LF to start a header of their own. */
export function safeHeaders(headers: unknown): Record<string, string | string[]> {
  if (headers === undefined) return {}
  if (!headers || typeof headers !== 'object' || Array.isArray(headers))
    throw new UnsafeAnswerError('startSession returned headers that are not an object of header names to values.')
  const safe: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new UnsafeAnswerError(`startSession returned a header whose name is not a header name: ${JSON.stringify(name)}.`)
    if (OWN_HEADERS.has(name.toLowerCase()))
      throw new UnsafeAnswerError(
        `startSession returned a ${name} header: the controller writes its own Content-Type and Cache-Control, and where to go is returned as \`location\`.`,
      )
    const values = [value].flat()
    if (values.length === 0 || !values.every((each) => typeof each === 'string' && HEADER_VALUE.test(each))) {
      throw new UnsafeAnswerError(
        `startSession returned a ${name} header with a value that is not text free of control characters (CR and LF would start another header).`,
      )
    }
    safe[name] = value as string | string[]
  }
  return safe
}

/** `URL.parse`, which Node 20 lacks. */
function parseUrl(text: string, base?: string): URL | null {
  try {
    return new URL(text, base)
  } catch {
    return null
  }
}
