// Identifiers and ids go into the service's URLs as path segments, and must stay data there: an
// identifier "a/b" must not add a segment, and "." must not be read as "this folder", which would
// turn /identities/./authenticate into /identities/authenticate, another endpoint.

/** An identifier or id that cannot be sent in a URL path; nothing was sent. A TypeError: the argument is at fault. */
export class PathSegmentError extends TypeError {
  override name = 'PathSegmentError'
}

// In a `u` regex a valid surrogate pair is one code point, so only lone halves match.
const LONE_SURROGATE = /\p{Cs}/u

/**
 * `value` as one percent-encoded path segment (encodeURIComponent, so `/`, `?` and `#` are data),
 * with "." and ".." as `%2E` and `%2E%2E`: what the spec's "URL-encoded" means for them, since
 * encodeURIComponent leaves dots alone. Throws a PathSegmentError for text that is not
 * well-formed Unicode, which has no UTF-8 to encode (encodeURIComponent would throw a URIError).
 */
export function pathSegment(value: string): string {
  if (LONE_SURROGATE.test(value))
    throw new PathSegmentError('The identifier is not well-formed Unicode (it has a lone surrogate), so it cannot be sent in a URL.')
  const encoded = encodeURIComponent(value)
  return encoded === '.' || encoded === '..' ? encoded.replace(/\./g, '%2E') : encoded
}

/**
 * Throws a PathSegmentError unless fetch will request `path` under `base` as it is written. The
 * URL parser every fetch runs resolves `%2E` and `%2E%2E` segments as it does `.` and `..`, so
 * the identifiers "." and ".." cannot reach the service as data through fetch: such a request is
 * refused here rather than sent to whatever the resolved path names.
 */
export function checkSentAsBuilt(base: string, path: string): void {
  let sent: string
  let expected: string
  try {
    expected = new URL(base + '/').pathname.replace(/\/$/, '') + path.replace(/[?#].*$/s, '')
    sent = new URL(base + path).pathname
  } catch {
    return // Not a URL at all: fetch fails on it and says so.
  }
  if (sent !== expected) {
    throw new PathSegmentError(`The identifier cannot be sent: fetch would resolve its "." or ".." and request ${sent} instead.`)
  }
}
