// The warnings: weaknesses that let no one sign in who should not, but widen what an attacker
// can try (a token in a URL, a login page another site can drive, an open redirect, a session
// id an attacker planted, a session cookie script can read). Each needs the valid sign-in to have
// signed in: what they compare with is what it did.
import { randomBytes } from 'node:crypto'
import { type Attempt, type Browser, endOf, isRedirect } from './browser.js'
import type { CaseContext, CheckCase, Verdict } from './cases.js'
import { CookieJar } from './cookie-jar.js'
import { printable } from './printable.js'

/** Where an open redirect would send the browser: a name that can never resolve. */
const ELSEWHERE = 'https://open-redirect.check.invalid/'
/** The query parameters apps commonly read a redirect target from. */
const REDIRECT_PARAMS = ['redirect', 'redirect_uri', 'redirectTo', 'next', 'return', 'returnTo', 'return_to', 'url', 'continue', 'to']
/** The names a token might be read from, off the header. */
const TOKEN_NAMES = ['token', 'jwt', 'X-Service-Auth']

/**
 * A warning case: `run` judges only once the valid sign-in signed in, since what it compares with
 * is what that did; without it the case is a skip.
 */
function warns(id: string, title: string, fix: string, run: (context: CaseContext, signIn: SignIn) => Promise<Verdict>): CheckCase {
  return {
    id,
    kind: 'warning',
    title,
    fix,
    async run(context) {
      const { signIn } = context
      if (!signIn?.accepted) return { outcome: 'skip', evidence: 'the valid sign-in did not sign in: nothing to compare with' }
      return run(context, signIn)
    },
  }
}

/** What the valid sign-in did, which the warnings compare with. */
type SignIn = NonNullable<CaseContext['signIn']>

/**
 * Whether the attempt sends the browser to ELSEWHERE's origin, and how: the embed sends it there
 * (`landing`: a 2xx's JSON location, at the end of the redirects its fetch follows too), or a
 * redirect along the way leads there (the controller's own, or a page's it leads through), on which
 * the fetch stops, and fails, being on another origin.
 */
function sentAway(browser: Browser, attempt: Attempt): 'landing' | 'redirect' | undefined {
  const elsewhere = (url: string | undefined) => url !== undefined && new URL(url).origin === new URL(ELSEWHERE).origin
  if (elsewhere(browser.landing(attempt).next)) return 'landing'
  const end = endOf(attempt)
  return isRedirect(end.status) && elsewhere(end.location) ? 'redirect' : undefined
}

const OPEN_REDIRECT_FIX = 'Send the browser to a path of your own site (or to an origin on a list of yours), never to a target read from the request.'

const named = (token: string) => Object.fromEntries(TOKEN_NAMES.map((name) => [name, token]))

export const WARNINGS: CheckCase[] = [
  warns(
    'token-elsewhere',
    'the token in the query string, then in a cookie, not in the header',
    'Read the token from the X-Service-Auth header only: URLs end up in logs, histories and Referer headers, and another site can make a browser send a URL or a cookie.',
    async (context) => {
      const { browser, tokens, identity } = context
      const taken: string[] = []
      const seen: string[] = []
      for (const [where, place] of [
        ['the query string', 'query'],
        ['a cookie', 'cookies'],
      ] as const) {
        const { token } = await tokens.signedBy(identity)
        const attempt = await browser.attempt({
          jar: new CookieJar(),
          token,
          header: false,
          ...(place === 'query' ? { query: named(token) } : { cookies: named(token) }),
        })
        seen.push(`${where}: ${browser.describe(attempt)}`)
        if (browser.accepted(attempt)) taken.push(`from ${where}: ${browser.describe(attempt)}`)
      }
      return taken.length ? { outcome: 'warn', evidence: `signed in with the token ${taken.join('; ')}` } : { outcome: 'pass', evidence: seen.join('; ') }
    },
  ),
  warns(
    'no-requested-with',
    'a valid token without X-Requested-With: XMLHttpRequest',
    'Refuse (400) a request without X-Requested-With: XMLHttpRequest, which the embed always sends: another site cannot add it without your CORS consent.',
    async (context) => {
      const { browser, tokens, identity } = context
      const attempt = await browser.attempt({ jar: new CookieJar(), token: (await tokens.signedBy(identity)).token, xhr: false })
      const seen = browser.describe(attempt)
      return browser.accepted(attempt) ? { outcome: 'warn', evidence: `${seen}: signed in without it` } : { outcome: 'pass', evidence: seen }
    },
  ),
  warns(
    'cross-site',
    'a valid token, with X-Requested-With, from another site’s page (Sec-Fetch-Site: cross-site)',
    'Refuse (403) a request whose Sec-Fetch-Site is there and is not same-origin: the embed always calls its own origin, and another site’s page gets this far only through a CORS setup that lets it, to sign the browser in as someone else.',
    async (context) => {
      const { browser, tokens, identity } = context
      const attempt = await browser.attempt({ jar: new CookieJar(), token: (await tokens.signedBy(identity)).token, site: 'cross-site' })
      const seen = browser.describe(attempt)
      return browser.accepted(attempt) ? { outcome: 'warn', evidence: `${seen}: signed in from another site` } : { outcome: 'pass', evidence: seen }
    },
  ),
  warns(
    'open-redirect',
    `a valid token, and ${REDIRECT_PARAMS.slice(0, 3).join(', ')}... in the query naming another site`,
    OPEN_REDIRECT_FIX,
    async (context) => {
      const { browser, tokens, identity } = context
      const query = Object.fromEntries(REDIRECT_PARAMS.map((name) => [name, ELSEWHERE]))
      const attempt = await browser.attempt({ jar: new CookieJar(), token: (await tokens.signedBy(identity)).token, query })
      const seen = browser.describe(attempt)
      const away = sentAway(browser, attempt)
      if (!away) return { outcome: 'pass', evidence: seen }
      // Named by a page the controller's redirects lead through: the fix says which.
      const page = attempt.redirects.at(-1)
      const fix = page && `${OPEN_REDIRECT_FIX} ${new URL(page.url).pathname}, which your redirects lead through, sends it where the request says.`
      if (away === 'landing') return { outcome: 'warn', evidence: `${seen}: the embed sends the browser where the request said`, ...(fix && { fix }) }
      // The valid sign-in reports a redirect to another origin, on which the embed's fetch fails;
      // this one is a warning of its own only because the request chose where it goes.
      return {
        outcome: 'warn',
        evidence: `${seen}: a redirect where the request said (the embed’s same-origin fetch fails on it, but the redirect is open)`,
        ...(fix && { fix }),
      }
    },
  ),
  warns(
    'session-fixation',
    'a valid token from a browser that holds a session id already',
    'Start a new session id at sign-in (PHP: session_regenerate_id(true)), never keep the one the browser came with: another site may have planted it.',
    async (context, signIn) => {
      const { browser, tokens, identity } = context
      const names = signIn.attempt.cookies.filter(({ deleting }) => !deleting).map(({ name }) => name)
      if (!names.length) return { outcome: 'skip', evidence: 'the valid sign-in set no cookie' }
      const jar = new CookieJar()
      // A first visit, which may start a session (PHP's session_start does); what it did not set is planted.
      await browser.signedInStatus(jar)
      for (const name of names) if (jar.get(name) === undefined) jar.plant(name, `check-fixation-${randomBytes(8).toString('hex')}`)
      const before = new Map(names.map((name) => [name, jar.get(name)]))
      const attempt = await browser.attempt({ jar, token: (await tokens.signedBy(identity)).token })
      const seen = browser.describe(attempt)
      const kept = names.filter((name) => jar.get(name) === before.get(name))
      if (!browser.accepted(attempt) || !kept.length) return { outcome: 'pass', evidence: `${seen}; new: ${names.map(printable).join(', ')}` }
      return { outcome: 'warn', evidence: `${seen}, and ${kept.map(printable).join(', ')} kept the value the browser came with` }
    },
  ),
  warns(
    'cookie-flags',
    'the cookies the valid sign-in set: HttpOnly, and SameSite Lax or Strict',
    'Set the session cookie HttpOnly (no script reads it) and SameSite=Lax or Strict (other sites’ requests do not carry it).',
    async (_context, signIn) => {
      const set = signIn.attempt.cookies.filter(({ deleting }) => !deleting)
      if (!set.length) return { outcome: 'skip', evidence: 'the valid sign-in set no cookie' }
      // The names and SameSite values are the app's own text: printed with no terminal escape in them.
      const weak = set.flatMap(({ name, httpOnly, sameSite }) => [
        ...(httpOnly ? [] : [`${printable(name)} without HttpOnly`]),
        ...(/^(lax|strict)$/i.test(sameSite ?? '')
          ? []
          : [sameSite ? `${printable(name)} with SameSite=${printable(sameSite)}` : `${printable(name)} without SameSite`]),
      ])
      const all = set.map(({ name, sameSite }) => `${printable(name)}: HttpOnly, SameSite=${sameSite}`).join('; ')
      return weak.length ? { outcome: 'warn', evidence: weak.join('; ') } : { outcome: 'pass', evidence: all }
    },
  ),
]
