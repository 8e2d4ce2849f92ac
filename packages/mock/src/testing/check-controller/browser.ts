// The browser's side of the check: it calls the controller as the embed does (GET, `Accept:
// application/json`, `X-Requested-With: XMLHttpRequest`, the token in `X-Service-Auth`, the jar's
// cookies), reads where the answer sends the browser, and asks the `--signed-in` page whether the
// jar is signed in. Every request has a time limit, so a controller that hangs is a verdict, not
// a hung check.
import type { CookieJar, SetCookie } from './cookie-jar.js'
import { printable, quoted } from './printable.js'

/** How long the check waits for any one answer of the app. */
export const ANSWER_TIMEOUT_MS = 15_000

// The most of an answer's body the check reads: the embed's JSON, or a problem, is far less. A
// controller that streams more (or never ends) is read as answering no JSON, not held in memory.
export const MAX_BODY_BYTES = 1024 * 1024

/** The fix for a controller that gave no answer: dropped the connection, or kept it waiting. */
export const NO_ANSWER_FIX =
  'Answer every request with a status, a refusal too (a 4xx problem), within a few seconds: the embed gives up after 30 s, ' +
  'and the person waits meanwhile. Does the controller wait on something without a time limit, or end the connection on a bad token?'

export interface CallOptions {
  jar: CookieJar
  /** The token, in the `X-Service-Auth` header unless `header` is false. */
  token?: string
  header?: boolean
  /** `X-Requested-With: XMLHttpRequest`, as the embed sends it; default true. */
  xhr?: boolean
  /** Added to the controller's URL. */
  query?: Record<string, string>
  /** Sent besides the jar's. */
  cookies?: Record<string, string>
  timeoutMs?: number
}

/** The controller's answer, as the embed reads it. */
export interface Answer {
  /** The HTTP status; 0 when no answer came. */
  status: number
  /**
   * Where it names: a 3xx's `Location`, or a 2xx's JSON `{location}`, absolute and http(s).
   * Whether the embed goes there is `Browser.landing`'s to say (not for a 304, say).
   */
  location: string | undefined
  /**
   * That `Location` or `{location}` as given, when it names no place the embed can go: it is no
   * URL (`http://[::1`), not http(s) (`javascript:…`), or a JSON value other than a string
   * (`{"location": 5}`), then given as its JSON text. (A falsy one, `null` or `0`, is none at all
   * to the embed, as it is here.)
   */
  strayLocation?: { given: string; why: 'not a URL' | 'not http(s)' | 'not a string' }
  /**
   * A 2xx's body that names a location, which the embed does not read: its Content-Type (given
   * here, '' for none) does not say JSON. `given` is that location as JSON text.
   */
  unread?: { given: string; contentType: string }
  /**
   * A 2xx's JSON location as given, when it is relative to a page's path (`welcome`, `?next`): the
   * embed resolves it against the login page, which the check does not know, so `location`,
   * resolved against the controller's URL, has the origin right but perhaps not the path.
   */
  relativeLocation?: string
  /** A refusal's problem `detail` (or `title`), when it has one. */
  detail: string | undefined
  /** What its `Set-Cookie` headers set. */
  cookies: SetCookie[]
  /** When it came (epoch ms), and how long after the request. */
  at: number
  ms: number
  /** Why no answer came: `no answer within 15 s`, `ECONNREFUSED`... */
  error?: string
}

/**
 * What the embed does with an answer (service-auth's hand-over.ts, after the browser's fetch):
 * it sends the browser to `next`, signed in as far as it can tell, or it goes nowhere, for the
 * reason `stop`; `says` is what the person or the console gets, for the evidence.
 */
export type Landing = { next: string } | { next?: undefined; stop: Stop; says: string }

/**
 * Why the embed goes nowhere: no answer; a refusal (4xx, 5xx); a redirect with no Location, or a
 * 3xx that fetch does not follow, which reach the embed as they are, no 2xx; a location on another
 * origin, no URL, or not http(s), on which a redirect's fetch fails and a 2xx's hand-over does (on
 * a JSON location that is no string too); a 2xx that names no place, or names it in a body the
 * embed does not read (`unread`), which leaves the person on the login page.
 */
export type Stop =
  | 'no answer'
  | 'refused'
  | 'no Location'
  | 'not followed'
  | 'another origin'
  | 'not a URL'
  | 'not http(s)'
  | 'not a string'
  | 'no location'
  | 'not JSON'

// What the embed's console says when its fetch fails, in its own words (hand-over.ts's
// `unreachable`), and what the person reads beside the next code whenever a hand-over fails.
const NO_ANSWER = 'the embed says "no answer from the controller" ("Sign-in failed")'
const FAILED = '("Sign-in failed")'
// What its console says when a 2xx's location is none it can go to, in its own words (hand-over.ts).
const LOCATION_FAILED = `the embed says "the controller's location is not http(s)" ${FAILED}`

/** One attempt to sign in: the controller's answer, then what `--signed-in` says of the jar. */
export interface Attempt extends Answer {
  /** `--signed-in`'s status for the jar after the answer; undefined without `--signed-in`. */
  signedInStatus: number | undefined
}

const EMBED_HEADERS = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' }

export class Browser {
  constructor(
    readonly controller: URL,
    /** The page that answers 2xx only to a signed-in browser, if the check was given one. */
    readonly signedInPage: URL | undefined,
  ) {}

  /** Calls the controller once, as the embed would; never throws for what the app does. */
  async call({ jar, token, header = true, xhr = true, query = {}, cookies = {}, timeoutMs = ANSWER_TIMEOUT_MS }: CallOptions): Promise<Answer> {
    const url = new URL(this.controller)
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
    const headers: Record<string, string> = xhr ? { ...EMBED_HEADERS } : { Accept: EMBED_HEADERS.Accept }
    if (token !== undefined && header) headers['X-Service-Auth'] = token
    const cookie = [jar.header(url), ...Object.entries(cookies).map(([name, value]) => `${name}=${value}`)].filter(Boolean).join('; ')
    if (cookie) headers.Cookie = cookie
    const started = Date.now()
    const ended = (answer: Omit<Answer, 'at' | 'ms'>): Answer => ({ ...answer, at: Date.now(), ms: Date.now() - started })
    try {
      // Redirects are not followed here: `landing` says what the embed's fetch makes of one.
      const res = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) })
      const text = await readBody(res)
      const set = jar.store(res.headers, url)
      // As the embed's http.ts does: a body is read only when its Content-Type says JSON (a page a
      // redirect ended on has nothing for it), whatever the body is; `includes`, case and all.
      const contentType = res.headers.get('content-type') ?? ''
      const readable = contentType.includes('json')
      const json = readable ? parseJson(text) : undefined
      // What the embed does not see: a location in a 2xx's body whose Content-Type is not JSON's.
      const unreadLocation = res.ok && !readable ? field(parseJson(text), 'location') : undefined
      const value = res.ok ? field(json, 'location') : undefined
      const named = is3xx(res.status) ? res.headers.get('location') : typeof value === 'string' ? value : undefined
      const resolved = named ? resolve(named, url) : undefined
      // As the embed's hand-over does: only an http(s) location is one it sends the browser to.
      const location = resolved && /^https?:$/.test(resolved.protocol) ? resolved.href : undefined
      // The embed resolves a JSON location against the login page (config.ts's toUrl), on the
      // controller's origin (config.ts refuses a controller elsewhere): only a location relative to
      // a path lands elsewhere from there than here, which resolving it from the root tells.
      const relative = res.ok && location !== undefined && resolve(named!, new URL('/', url))?.href !== location
      return ended({
        status: res.status,
        location,
        ...(named && location === undefined && { strayLocation: { given: named, why: resolved ? 'not http(s)' : 'not a URL' } }),
        // The embed fails on any other value it takes for one, which is any but a falsy one (hand-over.ts).
        ...(value && typeof value !== 'string' ? { strayLocation: { given: JSON.stringify(value), why: 'not a string' } } : {}),
        ...(relative && { relativeLocation: named! }),
        ...(unreadLocation ? { unread: { given: JSON.stringify(unreadLocation), contentType } } : {}),
        detail: res.status >= 400 ? (stringField(json, 'detail') ?? stringField(json, 'title')) : undefined,
        cookies: set,
      })
    } catch (error) {
      return ended({ status: 0, location: undefined, detail: undefined, cookies: [], error: failureOf(error, timeoutMs) })
    }
  }

  /** `--signed-in`'s status for the jar, or undefined without it. Its redirects are answers too. */
  async signedInStatus(jar: CookieJar): Promise<number | undefined> {
    if (!this.signedInPage) return undefined
    const cookie = jar.header(this.signedInPage)
    try {
      const res = await fetch(this.signedInPage, {
        headers: { Accept: 'text/html', ...(cookie ? { Cookie: cookie } : {}) },
        redirect: 'manual',
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      })
      await readBody(res)
      jar.store(res.headers, this.signedInPage)
      return res.status
    } catch {
      return 0
    }
  }

  /** Calls the controller, then asks `--signed-in` about the jar. */
  async attempt(options: CallOptions): Promise<Attempt> {
    const answer = await this.call(options)
    return { ...answer, signedInStatus: await this.signedInStatus(options.jar) }
  }

  /**
   * Whether the attempt signed the browser in: by `--signed-in` when given (2xx for the jar), else
   * by the answer, as the embed takes it: one it sends the browser on with (`landing`).
   */
  accepted(attempt: Attempt): boolean {
    if (attempt.signedInStatus !== undefined) return isOk(attempt.signedInStatus)
    return this.landing(attempt).next !== undefined
  }

  /**
   * What the embed does with the answer. Its fetch is same-origin, and follows redirects: a
   * redirect status (`isRedirect`) with a Location on the controller's origin is followed, and the
   * embed goes where it ends (taken here to be that Location, which the check does not follow);
   * one to another origin, to no URL, or to a scheme not http(s) fails the fetch (the Fetch
   * standard's HTTP-redirect fetch, and main fetch in same-origin mode), which the embed reports
   * as no answer.
   * Any other status reaches the embed as it is: a 2xx's JSON location is where it goes (any
   * origin), and whatever is no 2xx, a 304 or a redirect with no Location too, is a refusal.
   */
  landing(answer: Answer): Landing {
    const { status, location, strayLocation } = answer
    const stop = (stop: Stop, says: string): Landing => ({ stop, says })
    if (status === 0) return stop('no answer', NO_ANSWER)
    if (isRedirect(status)) {
      if (strayLocation?.why === 'not a URL') return stop('not a URL', `the browser’s fetch fails on a Location that is no URL: ${NO_ANSWER}`)
      if (strayLocation) return stop('not http(s)', `the browser’s fetch follows redirects to http(s) only: ${NO_ANSWER}`)
      if (location === undefined) return stop('no Location', `the embed takes it for a refusal ${FAILED}`)
      if (new URL(location).origin !== this.controller.origin) {
        return stop('another origin', `the embed’s fetch is same-origin, and fails on a redirect to another origin: ${NO_ANSWER}`)
      }
      return { next: location }
    }
    if (is3xx(status)) {
      return stop('not followed', `the browser’s fetch follows 301, 302, 303, 307 and 308 only, and the embed takes a ${status} for a refusal ${FAILED}`)
    }
    if (!isOk(status)) return stop('refused', `the embed takes it for a refusal ${FAILED}`)
    if (strayLocation?.why === 'not a URL') return stop('not a URL', `no browser can go there: ${LOCATION_FAILED}`)
    if (strayLocation?.why === 'not http(s)') return stop('not http(s)', `only an http(s) URL is a place to go: ${LOCATION_FAILED}`)
    if (strayLocation) return stop('not a string', `only a string names a place to go: ${LOCATION_FAILED}`)
    if (location === undefined && answer.unread) {
      return stop('not JSON', 'the embed reads a body only when it is JSON (Content-Type: application/json): it stays on the login page')
    }
    if (location === undefined) return stop('no location', 'the embed stays on the login page')
    return { next: location }
  }

  /** The attempt in a few words, for the evidence: `answered 302 → /welcome; GET /welcome: 200, signed in`. */
  describe(attempt: Attempt): string {
    const answer = this.describeAnswer(attempt)
    if (attempt.signedInStatus === undefined || attempt.status === 0) return answer
    const page = this.signedInPage!.pathname
    return `${answer}; GET ${page}: ${attempt.signedInStatus || 'no answer'}, ${isOk(attempt.signedInStatus) ? 'signed in' : 'not signed in'}`
  }

  describeAnswer(answer: Answer): string {
    if (answer.status === 0) return answer.error!
    const where = answer.location === undefined ? '' : this.#shown(answer.location)
    // Quoted as a string literal: the answer's own characters, whatever they are, none of them a terminal's escape.
    const { given, why } = answer.strayLocation ?? {}
    const stray = given === undefined ? '' : why === 'not a string' ? printable(given) : quoted(given)
    // Where a 3xx points, as given: "(no Location)" only where the browser's fetch would look for one.
    const to = where || (stray && `${stray} (${why})`) || (isRedirect(answer.status) ? '(no Location)' : '')
    if (is3xx(answer.status)) return `answered ${answer.status}${to && ` → ${to}`}`
    if (isOk(answer.status) && answer.unread) {
      const { given: unread, contentType } = answer.unread
      return `answered ${answer.status} {location: ${printable(unread)}} (${contentType ? `Content-Type: ${printable(contentType)}` : 'no Content-Type'})`
    }
    if (isOk(answer.status) && answer.relativeLocation !== undefined) {
      return `answered ${answer.status} {location: ${quoted(answer.relativeLocation)}} (relative to the login page)`
    }
    if (isOk(answer.status)) {
      return `answered ${answer.status} ${where ? `{location: "${where}"}` : stray ? `{location: ${stray}} (${why})` : 'without a location'}`
    }
    return `answered ${answer.status}${answer.detail ? ` (${quoted(answer.detail)})` : ''}`
  }

  /** A location on the controller's origin as its path; another origin's in full. */
  #shown(location: string): string {
    const url = new URL(location)
    return url.origin === this.controller.origin ? url.pathname + url.search : location
  }
}

export const isOk = (status: number) => status >= 200 && status < 300
/** A status the browser's fetch follows (the Fetch standard's redirect statuses); it hands any other 3xx over as it is. */
export const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status)
const is3xx = (status: number) => status >= 300 && status < 400

/** The body as text, or '' when it is longer than MAX_BODY_BYTES (then no more of it is read). */
async function readBody(res: Response): Promise<string> {
  if (!res.body) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of res.body) {
    size += chunk.byteLength
    if (size > MAX_BODY_BYTES) {
      // Leaving the loop cancels the stream, and with it the connection.
      return ''
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function field(json: unknown, name: string): unknown {
  return json !== null && typeof json === 'object' ? (json as Record<string, unknown>)[name] : undefined
}

function stringField(json: unknown, name: string): string | undefined {
  const value = field(json, name)
  return typeof value === 'string' ? value : undefined
}

function resolve(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base)
  } catch {
    return undefined
  }
}

function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  // The reason may quote what the app sent (a malformed header, say).
  return `no answer (${printable(cause?.code ?? cause?.message ?? (error as Error).message)})`
}
