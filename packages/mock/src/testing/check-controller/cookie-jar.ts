// The cookies of one browser, as the check plays it: one jar per case, so that no case's session
// leaks into another's judgement. Only what a sign-in needs: every cookie goes back to the app's
// host (the check talks to nothing else with it), to the paths its Path (or, without one, the
// path it was set from) covers, as a browser sends it: a session cookie scoped to the
// controller's path signs no one in on the signed-in page. A cookie set empty, expired or with
// Max-Age 0 is deleted.

/** A cookie as an answer set it, with the attributes the check judges. */
export interface SetCookie {
  name: string
  value: string
  httpOnly: boolean
  /** The SameSite attribute's value, or undefined when it has none. */
  sameSite: string | undefined
  /** Set to be deleted: empty, Max-Age 0 or less, or expired. */
  deleting: boolean
  /** The Path attribute, when it is one (it starts with `/`). */
  path: string | undefined
}

export function parseSetCookie(header: string): SetCookie | undefined {
  const [pair = '', ...attributes] = header.split(';')
  const at = pair.indexOf('=')
  if (at <= 0) return undefined
  const name = pair.slice(0, at).trim()
  const value = pair.slice(at + 1).trim()
  const attribute = (wanted: string) => {
    for (const part of attributes) {
      const [key = '', ...rest] = part.split('=')
      if (key.trim().toLowerCase() === wanted) return rest.join('=').trim()
    }
    return undefined
  }
  const maxAge = attribute('max-age')
  const expires = attribute('expires')
  const path = attribute('path')
  return {
    name,
    value,
    httpOnly: attribute('httponly') !== undefined,
    sameSite: attribute('samesite'),
    deleting: value === '' || (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) < Date.now()),
    path: path?.startsWith('/') ? path : undefined,
  }
}

/** RFC 6265's default path: the directory of the path a cookie was set from. */
export function defaultPath(url: URL): string {
  const slash = url.pathname.lastIndexOf('/')
  return slash > 0 ? url.pathname.slice(0, slash) : '/'
}

/** RFC 6265's path-match: the cookie's path is the request's, or a directory of it. */
export function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true
  return requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/')
}

export class CookieJar {
  /** Each cookie by its name and path, as a browser keeps them apart. */
  readonly #cookies = new Map<string, { name: string; path: string; value: string }>()

  /** Keeps what an answer to `url` set (its `Set-Cookie` headers), and forgets what it deleted. */
  store(headers: Headers, url: URL): SetCookie[] {
    const set = headers.getSetCookie().flatMap((header) => parseSetCookie(header) ?? [])
    for (const cookie of set) {
      const path = cookie.path ?? defaultPath(url)
      const id = `${path}\n${cookie.name}`
      if (cookie.deleting) this.#cookies.delete(id)
      else this.#cookies.set(id, { name: cookie.name, path, value: cookie.value })
    }
    return set
  }

  /** Puts a cookie in, for every path, as a page of another site might have planted it (session fixation). */
  plant(name: string, value: string): void {
    this.#cookies.set(`/\n${name}`, { name, path: '/', value })
  }

  /** The value of the cookie of that name that the path would be sent, or of any path without one. */
  get(name: string, path?: string): string | undefined {
    for (const cookie of this.#cookies.values()) if (cookie.name === name && (path === undefined || pathMatches(cookie.path, path))) return cookie.value
    return undefined
  }

  /** The `Cookie` header a request to `url` carries, or undefined when none goes there. */
  header(url: URL): string | undefined {
    // Longer paths first, as browsers order them.
    const sent = [...this.#cookies.values()].filter(({ path }) => pathMatches(path, url.pathname)).sort((a, b) => b.path.length - a.path.length)
    return sent.length ? sent.map(({ name, value }) => `${name}=${value}`).join('; ') : undefined
  }
}
