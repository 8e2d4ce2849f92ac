// The browser's side of the check: it calls the controller as the embed does (GET, `Accept:
// application/json`, `X-Requested-With: XMLHttpRequest`, the token in `X-Service-Auth`, the jar's
// cookies, and `Sec-Fetch-Site: same-origin` as the browser adds it), follows its redirects as the embed's fetch does, says where the embed goes with the
// answer, and asks the `--signed-in` page whether the jar is signed in. Every request has a time
// limit, so a controller that hangs is a verdict, not a hung check.
import { LARGEST_ANSWER } from 'service-auth/server'
import { ControllerCheckError } from '../errors.js'
import type { CookieJar, SetCookie } from './cookie-jar.js'
import { printable, quoted } from './printable.js'
import { isRefusedPort, refusedPortAdvice } from './refused-ports.js'
import { is3xx, isOk, isRedirect, type Reply, readBody, readReply } from './reply.js'

export { isOk, isRedirect } from './reply.js'

/** How long the check waits for any one answer of the app, its redirects included. */
export const ANSWER_TIMEOUT_MS = 15_000

/** The most redirects the browser's fetch follows (the Fetch standard's): it fails on the next. */
export const MAX_REDIRECTS = 20

/** The embed's size limit on an answer, as its console names it: `256 KB`. */
export const ANSWER_LIMIT = `${LARGEST_ANSWER / 1024} KB`

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
  /** The `Sec-Fetch-Site` a browser adds: `same-origin` (the default) for the embed's own request, which calls its page's origin. */
  site?: string
  /** Added to the controller's URL. */
  query?: Record<string, string>
  /** Sent besides the jar's. */
  cookies?: Record<string, string>
  timeoutMs?: number
}

/** The controller's answer, as the embed reads it, and the answers along the redirects its fetch follows. */
export interface Answer extends Reply {
  /** What the controller's own `Set-Cookie` headers set (the redirects' go into the jar alone). */
  cookies: SetCookie[]
  /** When the controller's answer came (epoch ms), and how long after the request. */
  at: number
  ms: number
  /**
   * The answers along the redirects the browser's fetch follows from the controller's, in order,
   * each with the URL it answered for: a redirect status with a Location on the controller's
   * origin, MAX_REDIRECTS at most. The embed reads the last (`endOf`); none when the controller's
   * answer is no such redirect.
   */
  redirects: Hop[]
}

/** An answer along the redirects, and the URL it answered for. */
export interface Hop extends Reply {
  url: string
}

/** The answer the embed reads: where the redirects ended, or the controller's own. */
export const endOf = (answer: Answer): Reply => answer.redirects.at(-1) ?? answer

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
 * a JSON location that is no string too); one redirect too many, on which fetch fails; a 2xx that
 * names no place, or names it in a body the embed does not read (`unread`), which leaves the
 * person on the login page; an answer over the embed's size limit (`tooLarge`), which it fails
 * whatever its status.
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
  | 'too many redirects'
  | 'no location'
  | 'not JSON'
  | 'too large'

// What the embed's console says when its fetch fails, in its own words (hand-over.ts's
// `unreachable`), and what the person reads beside the next code whenever a hand-over fails.
const NO_ANSWER = 'the embed says "no answer from the controller" ("Sign-in failed")'
const FAILED = '("Sign-in failed")'
// What its console says when a 2xx's location is none it can go to, in its own words (hand-over.ts).
const LOCATION_FAILED = `the embed says "the controller's location is not http(s)" ${FAILED}`
// What it says of an answer over its size limit (http.ts), in its own words.
const TOO_LARGE = (size: number, status: number) =>
  `the embed reads no answer over ${ANSWER_LIMIT}: it says "an answer of ${size} B or more (${status}) is over ${ANSWER_LIMIT}." ${FAILED}`

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

  /**
   * Calls the controller once, as the embed would, and follows its redirects as the embed's fetch
   * does, with the jar: a cookie the answer set goes along to them. Never throws for what the app does.
   */
  async call({
    jar,
    token,
    header = true,
    xhr = true,
    site = 'same-origin',
    query = {},
    cookies = {},
    timeoutMs = ANSWER_TIMEOUT_MS,
  }: CallOptions): Promise<Answer> {
    const url = new URL(this.controller)
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
    const headers: Record<string, string> = xhr ? { ...EMBED_HEADERS } : { Accept: EMBED_HEADERS.Accept }
    headers['Sec-Fetch-Site'] = site
    if (token !== undefined && header) headers['X-Service-Auth'] = token
    // One time limit for the controller and its redirects, as the embed's fetch has one.
    const signal = AbortSignal.timeout(timeoutMs)
    // Each request as the browser's fetch makes it along redirects on one origin: the same headers
    // (the token's too), and the cookies the jar has for its URL by then.
    const get = async (at: URL): Promise<{ reply: Reply; set: SetCookie[] }> => {
      const cookie = [jar.header(at), ...Object.entries(cookies).map(([name, value]) => `${name}=${value}`)].filter(Boolean).join('; ')
      try {
        // Redirects one at a time, each answer seen: `#follows` takes those the embed's fetch
        // follows, and `landing` says what it makes of the last.
        const res = await fetch(at, { headers: cookie ? { ...headers, Cookie: cookie } : headers, redirect: 'manual', signal })
        const reply = await readReply(res, at)
        return { reply, set: jar.store(res.headers, at) }
      } catch (error) {
        return { reply: { status: 0, location: undefined, detail: undefined, error: failureOf(error, timeoutMs) }, set: [] }
      }
    }
    const started = Date.now()
    const { reply, set } = await get(url)
    const answer: Answer = { ...reply, cookies: set, at: Date.now(), ms: Date.now() - started, redirects: [] }
    for (let next = this.#follows(answer); next && answer.redirects.length < MAX_REDIRECTS; next = this.#follows(endOf(answer))) {
      answer.redirects.push({ ...(await get(next)).reply, url: next.href })
    }
    return answer
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
    } catch (error) {
      // No answer on such a port ever: the check cannot judge by this page.
      if (isRefusedPort(error))
        throw new ControllerCheckError(`the signed-in page ${this.signedInPage.href} cannot be asked: ${refusedPortAdvice(this.signedInPage)}`)
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
   * redirect status (`isRedirect`) with a Location on the controller's origin is followed (`call`
   * follows it), MAX_REDIRECTS times at most, and what the embed reads is the answer where they end
   * (`endOf`); a redirect to another origin, to no URL, or to a scheme not http(s) fails the fetch
   * (the Fetch standard's HTTP-redirect fetch, and main fetch in same-origin mode), as one more
   * redirect does, which the embed reports as no answer.
   * Any other status reaches the embed as it is, and an answer over its size limit fails it first,
   * whatever the status: a 2xx's JSON location is where it goes (any origin), else the URL the
   * redirects ended on, if any; whatever is no 2xx, a 304 or a redirect with no Location too, is
   * a refusal.
   */
  landing(answer: Answer): Landing {
    const end = endOf(answer)
    const { status, location, strayLocation } = end
    const stop = (stop: Stop, says: string): Landing => ({ stop, says })
    if (status === 0) return stop('no answer', NO_ANSWER)
    if (isRedirect(status)) {
      if (strayLocation?.why === 'not a URL') return stop('not a URL', `the browser’s fetch fails on a Location that is no URL: ${NO_ANSWER}`)
      if (strayLocation) return stop('not http(s)', `the browser’s fetch follows redirects to http(s) only: ${NO_ANSWER}`)
      if (location !== undefined && new URL(location).origin !== this.controller.origin) {
        return stop('another origin', `the embed’s fetch is same-origin, and fails on a redirect to another origin: ${NO_ANSWER}`)
      }
      // One `call` would follow, but did not: the one after the last the browser's fetch follows.
      if (location !== undefined) return stop('too many redirects', `the browser’s fetch follows ${MAX_REDIRECTS} redirects at most: ${NO_ANSWER}`)
    }
    // What reaches the embed, its size first: http.ts fails it so before it looks at the status.
    if (end.tooLarge !== undefined) return stop('too large', TOO_LARGE(end.tooLarge, status))
    if (isRedirect(status)) return stop('no Location', `the embed takes it for a refusal ${FAILED}`)
    if (is3xx(status)) {
      return stop('not followed', `the browser’s fetch follows 301, 302, 303, 307 and 308 only, and the embed takes a ${status} for a refusal ${FAILED}`)
    }
    if (!isOk(status)) return stop('refused', `the embed takes it for a refusal ${FAILED}`)
    if (strayLocation?.why === 'not a URL') return stop('not a URL', `no browser can go there: ${LOCATION_FAILED}`)
    if (strayLocation?.why === 'not http(s)') return stop('not http(s)', `only an http(s) URL is a place to go: ${LOCATION_FAILED}`)
    if (strayLocation) return stop('not a string', `only a string names a place to go: ${LOCATION_FAILED}`)
    if (location !== undefined) return { next: location }
    // The page the redirects ended on, as the embed goes to the URL its fetch ended on (`res.url`).
    if (answer.redirects.length) return { next: answer.redirects.at(-1)!.url }
    if (end.unread) {
      return stop('not JSON', 'the embed reads a body only when it is JSON (Content-Type: application/json): it stays on the login page')
    }
    return stop('no location', 'the embed stays on the login page')
  }

  /** The attempt in a few words, for the evidence: `answered 302 → /welcome, which answered 200; GET /welcome: 200, signed in`. */
  describe(attempt: Attempt): string {
    const answer = this.describeAnswer(attempt)
    if (attempt.signedInStatus === undefined || attempt.status === 0) return answer
    const page = this.signedInPage!.pathname
    return `${answer}; GET ${page}: ${attempt.signedInStatus || 'no answer'}, ${isOk(attempt.signedInStatus) ? 'signed in' : 'not signed in'}`
  }

  /** The answer, and each along its redirects: a loop of them by its first two and its last. */
  describeAnswer(answer: Answer): string {
    if (answer.status === 0) return answer.error!
    const hops = answer.redirects
    const shown = hops.length > 3 ? [hops[0]!, hops[1]!, hops.at(-1)!] : hops
    const then = shown.map((hop) => (hop.status === 0 ? `which gave ${hop.error}` : `which answered ${this.#reply(hop, true)}`))
    if (hops.length > 3) then.splice(2, 0, `… ${hops.length - 3} more`)
    return [`answered ${this.#reply(answer, false)}`, ...then].join(', ')
  }

  /** One answer in a few words, `302 → /welcome` or `200 {location: "/welcome"}`; `followed`: at the end of redirects. */
  #reply(reply: Reply, followed: boolean): string {
    const { status } = reply
    const where = reply.location === undefined ? '' : this.#shown(reply.location)
    // Quoted as a string literal: the answer's own characters, whatever they are, none of them a terminal's escape.
    const { given, why } = reply.strayLocation ?? {}
    const stray = given === undefined ? '' : why === 'not a string' ? printable(given) : quoted(given)
    // Where a 3xx points, as given: "(no Location)" only where the browser's fetch would look for one.
    const to = where || (stray && `${stray} (${why})`) || (isRedirect(status) ? '(no Location)' : '')
    if (is3xx(status)) return `${status}${to && ` → ${to}`}`
    // A body the embed does not read, nor did the check: its size is all there is to show.
    if (reply.tooLarge !== undefined) return `${status} (${reply.tooLarge} B or more)`
    if (!isOk(status)) return `${status}${reply.detail ? ` (${quoted(reply.detail)})` : ''}`
    // At the end of redirects, a body the embed does not read, or none, is the page it goes to.
    if (reply.unread && !followed) {
      const { given: unread, contentType } = reply.unread
      return `${status} {location: ${printable(unread)}} (${contentType ? `Content-Type: ${printable(contentType)}` : 'no Content-Type'})`
    }
    if (reply.relativeLocation !== undefined) return `${status} {location: ${quoted(reply.relativeLocation)}} (relative to the login page)`
    if (where) return `${status} {location: "${where}"}`
    if (stray) return `${status} {location: ${stray}} (${why})`
    return followed ? `${status}` : `${status} without a location`
  }

  /** A location on the controller's origin as its path; another origin's in full. */
  #shown(location: string): string {
    const url = new URL(location)
    return url.origin === this.controller.origin ? url.pathname + url.search : location
  }

  /** Where the browser's fetch goes on to from `reply`: a redirect's Location on the controller's origin. */
  #follows(reply: Reply): URL | undefined {
    if (!isRedirect(reply.status) || reply.location === undefined) return undefined
    const next = new URL(reply.location)
    return next.origin === this.controller.origin ? next : undefined
  }
}

function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  // The reason may quote what the app sent (a malformed header, say).
  return `no answer (${printable(cause?.code ?? cause?.message ?? (error as Error).message)})`
}
