// The case that must pass: the identity's phone signs a code, and the controller confirms it at
// the service with the token's `jti` and `otp` before it answers, starts a session and sends the
// browser on. The cases that replay its token or judge its cookies build on what it did.
import { LARGEST_ANSWER } from 'service-auth/server'
import { ANSWER_LIMIT, type Answer, endOf, isOk, MAX_REDIRECTS, NO_ANSWER_FIX, type Stop } from './browser.js'
import type { CaseContext, CheckCase, Verdict } from './cases.js'
import { CookieJar, defaultPath, pathMatches } from './cookie-jar.js'
import { printable } from './printable.js'

export const validSignIn: CheckCase = {
  id: 'valid-sign-in',
  kind: 'must-pass',
  title: 'a valid signing starts a session, confirmed at the service first',
  fix:
    'Read the token from X-Service-Auth, verify it (HS256, the Base64-decoded API secret), find its sub in your user store, ' +
    'confirm at the service (POST /v1/entity/identities/{sub}/authenticate with jti and otp), and only on its 200 ' +
    'start the session and answer a redirect, or 200 {"location": …} (spec section 4).',
  async run(context) {
    const { browser, mock, tokens, identity } = context
    const token = await tokens.signedBy(identity)
    const attempt = await browser.attempt({ jar: new CookieJar(), token: token.token })
    const accepted = browser.accepted(attempt)
    context.signIn = { token, attempt, accepted }
    const { jti, otp } = token.claims
    const seen = browser.describe(attempt)
    const fail = (evidence: string, fix?: string): Verdict => ({ outcome: 'fail', evidence, fix })

    if (attempt.status === 0) return fail(seen, NO_ANSWER_FIX)
    if (attempt.status >= 400) return fail(seen, refusalFix(attempt.status, context, mock))
    // Judged by what the embed does with the answer, whatever --signed-in says: an answer it goes
    // nowhere with leaves the person on the login page, a session started or not.
    const landing = browser.landing(attempt)
    // The embed goes nowhere, yet --signed-in says the browser is signed in: when no confirmation
    // reached the mock either, that is said too (a session started unconfirmed), or it shows only
    // once the first flaw is fixed and the check runs again.
    const unconfirmed = async (evidence: string, fix: string): Promise<Verdict> => {
      const signedIn = attempt.signedInStatus !== undefined && isOk(attempt.signedInStatus)
      if (!signedIn || (await mock.confirmations(jti, otp)).length) return fail(evidence, fix)
      const [more, moreFix] = noConfirmation(jti, mock)
      return fail(`${evidence}; and ${more}`, `${fix} ${moreFix}`)
    }
    if (landing.next === undefined) return unconfirmed(`${seen}: ${landing.says}`, goesNowhereFix(landing.stop, attempt))
    if (attempt.signedInStatus !== undefined && !isOk(attempt.signedInStatus)) {
      const page = browser.signedInPage!
      // A cookie the answer set, which a browser does not send to the page: its Path is elsewhere.
      const elsewhere = attempt.cookies.flatMap(({ name, path, deleting }) => {
        const scope = path ?? defaultPath(browser.controller)
        return deleting || pathMatches(scope, page.pathname)
          ? []
          : [`${printable(name)} (Path ${printable(scope)}${path ? '' : ', from the controller’s own path'})`]
      })
      if (elsewhere.length) {
        return fail(seen, `Set the session cookie with Path=/: a browser does not send ${elsewhere.join(', ')} to ${page.pathname}.`)
      }
      return fail(seen, `Start the session in this answer (its Set-Cookie), so that ${page.href} answers 2xx to the browser.`)
    }
    const confirmations = await mock.confirmations(jti, otp)
    const state = await mock.challengeState(jti)
    if (!confirmations.length) {
      const [evidence, fix] = noConfirmation(jti, mock)
      return fail(`${seen}, but ${evidence}`, fix)
    }
    if (!confirmations.some(({ otpMatches }) => otpMatches) || state !== 'consumed') {
      return fail(`${seen}, but the service did not confirm challenge ${jti}: the confirmation sent another otp, or another identity`)
    }
    if (confirmations[0]!.at > attempt.at) {
      return fail(`${seen} before it confirmed challenge ${jti}`, 'Wait for the confirmation, and answer only once the service said 200.')
    }
    return { outcome: 'pass', evidence: `${seen}; confirmed challenge ${jti} with its otp first` }
  },
}

/** A sign-in the controller did not confirm at the service: what the mock saw, and the fix. */
function noConfirmation(jti: string, mock: { url: string }): [evidence: string, fix: string] {
  return [
    `no confirmation of challenge ${jti} reached the mock service at ${mock.url}`,
    `Confirm every sign-in at the service before you answer: POST ${mock.url}/v1/entity/identities/{sub}/authenticate {"challenge": jti, "otp": otp}. Does the controller's SERVICE_URL name ${mock.url}?`,
  ]
}

/** What to do when the embed goes nowhere with the valid sign-in's answer (a 3xx or a 2xx), by why. */
function goesNowhereFix(stop: Stop, answer: Answer): string {
  const end = answer.redirects.at(-1)
  if (stop === 'too large') {
    // The size the embed failed it for, and its limit, as its console says them, with the bytes.
    const size = `${endOf(answer).tooLarge} B or more`
    const limit = `${ANSWER_LIMIT} (${LARGEST_ANSWER} B)`
    if (end) {
      return (
        `Answer 200 {"location": "/welcome"} instead of redirecting: the embed’s fetch follows your redirects, and takes what ` +
        `${new URL(end.url).pathname} answers, ${size}, for your answer, of which it reads no more than ${limit}.`
      )
    }
    return `Answer with less than ${limit}, which is the most of an answer the embed reads: yours was ${size}. {"location": "/welcome"} is all it needs.`
  }
  if (stop === 'too many redirects') {
    return `Answer 200 {"location": "/welcome"} instead of redirecting: the embed’s fetch follows ${MAX_REDIRECTS} redirects at most, and yours go on (in a loop?).`
  }
  // Redirects that end where the embed cannot go on: the fetch read the page's answer for the controller's.
  if (end && stop !== 'another origin' && stop !== 'not a URL' && stop !== 'not http(s)' && stop !== 'not a string') {
    return (
      `Answer 200 {"location": "/welcome"} instead of redirecting: the embed’s fetch follows your redirects with its own headers ` +
      `(Accept: application/json, X-Requested-With, the token) and your cookies, and takes what ${new URL(end.url).pathname} answers for your answer.`
    )
  }
  // In the embed's own words: its console says this when a redirect to another origin fails.
  if (stop === 'another origin') {
    return (
      'Answer 200 {"location": "https://…"} instead, as the embed’s console says: it calls the controller in same-origin mode, ' +
      'so that the token never goes to another origin, and its fetch fails on a redirect there.'
    )
  }
  if (stop === 'not JSON') {
    return 'Send the location with the header Content-Type: application/json: the embed reads no other body, so it never saw yours.'
  }
  // The embed navigates to http(s) only: a javascript: or data: location would run in the page.
  if (stop === 'not a URL' || stop === 'not http(s)' || stop === 'not a string')
    return 'Send the browser to a path on your site (Location: /welcome, or {"location": "/welcome"}), or to an http(s) URL.'
  return 'Answer the embed with a redirect to where the person goes next (302, Location: /welcome), or with 200 {"location": "/welcome"}.'
}

/** What to do when the valid sign-in was refused, by the status. */
function refusalFix(status: number, { identity, names }: CaseContext, mock: { url: string; key: string }): string {
  // Named as the caller wrote it: --identity on the command line, identity to checkController.
  if (status === 403) return `Is ${identity} a user your store lets sign in? Name one with ${names.identity}, or add it to your store.`
  if (status === 401)
    return `Does the controller verify with the secret of the key ${mock.key} (SERVICE_SECRET), and confirm at ${mock.url} (SERVICE_URL)? Its log should say which check failed.`
  return 'The controller failed on a valid sign-in: its log should say why.'
}
