// The cookies of one browser, as the check plays it: one jar per case, so that no case's session
// leaks into another's judgement. Only what a sign-in needs: every cookie goes back to the app's
// origin (the check talks to nothing else with it), and a cookie set empty, expired or with
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
  return {
    name,
    value,
    httpOnly: attribute('httponly') !== undefined,
    sameSite: attribute('samesite'),
    deleting: value === '' || (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) < Date.now()),
  }
}

export class CookieJar {
  readonly #cookies = new Map<string, string>()

  /** Keeps what an answer set (its `Set-Cookie` headers), and forgets what it deleted. */
  store(headers: Headers): SetCookie[] {
    const set = headers.getSetCookie().flatMap((header) => parseSetCookie(header) ?? [])
    for (const cookie of set) {
      if (cookie.deleting) this.#cookies.delete(cookie.name)
      else this.#cookies.set(cookie.name, cookie.value)
    }
    return set
  }

  /** Puts a cookie in, as a page of another site might have planted it (session fixation). */
  plant(name: string, value: string): void {
    this.#cookies.set(name, value)
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name)
  }

  /** The `Cookie` header to send, or undefined when the jar is empty. */
  header(): string | undefined {
    return this.#cookies.size ? [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ') : undefined
  }
}
