// The cases the controller must refuse, starting no session: each sends one flaw. A forged token
// carries a challenge a phone really signed, so a controller that takes it and confirms it really
// signs in. The service's own failures come last, and the slow one runs beside the warnings:
// cases after a background case must queue no failure at the mock, which its released request
// could take.
import { type Attempt, endOf, isOk, NO_ANSWER_FIX, type Stop } from './browser.js'
import type { CaseContext, CheckCase, Verdict } from './cases.js'
import { CookieJar } from './cookie-jar.js'
import type { SignedToken } from './tokens.js'

/** The spec's bound on a controller whose service fails: a 5xx within 10 s. */
export const CONFIRMATION_LIMIT_MS = 10_000
// For the way to the controller and back, on a busy machine.
const GRACE_MS = 1_000

/** Refused, and no session: by `--signed-in` when given, else by a 4xx or 5xx answer, where the embed reads it (`endOf`). */
function refusal({ browser }: CaseContext, attempt: Attempt): Verdict {
  const seen = browser.describe(attempt)
  // Not the case's flaw, but no refusal either: the fix says what is wrong instead.
  if (attempt.status === 0) return { outcome: 'fail', evidence: seen, fix: NO_ANSWER_FIX }
  // With --signed-in the evidence says so already; without, the answer is what signs the embed in.
  if (browser.accepted(attempt)) return { outcome: 'fail', evidence: attempt.signedInStatus === undefined ? `${seen}: the embed signs in` : seen }
  const landing = browser.landing(attempt)
  // A refusal's status on an answer too large for the embed is still a refusal: it starts no
  // session, and the person reads "Sign-in failed", as after any refusal.
  const refused = landing.next === undefined && (landing.stop === 'refused' || (landing.stop === 'too large' && endOf(attempt).status >= 400))
  if (attempt.signedInStatus === undefined && landing.next === undefined && !refused) {
    // A location the embed does not go to starts no session in it, nor does a redirect with no
    // Location or a 3xx fetch does not follow, but none of them is a refusal: a 4xx says the token
    // was refused (a 5xx, that the controller failed, which starts no session either). At the end
    // of redirects too: the page they lead to refused the browser, with the cookies they set.
    const why = notARefusal(landing.stop, endOf(attempt).status)
    return { outcome: 'fail', evidence: `${seen}: ${why}` }
  }
  return { outcome: 'pass', evidence: seen }
}

/** Why an answer under 400 that the embed goes nowhere with is still no refusal, by why it goes nowhere. */
function notARefusal(stop: Stop, status: number): string {
  if (stop === 'no location' || stop === 'not JSON') return 'the embed takes any 2xx for a sign-in'
  if (stop === 'no Location') return 'a redirect with no Location, not a refusal (4xx)'
  if (stop === 'not followed') return `a ${status}, not a refusal (4xx)`
  // Too large for the embed, which fails it, but a 2xx or a 3xx all the same.
  if (stop === 'too large') return isOk(status) ? 'a sign-in’s answer, not a refusal (4xx), however large' : `a ${status}, not a refusal (4xx)`
  // A location on another origin, no URL, or not http(s): the answer a sign-in gives.
  return 'a sign-in’s answer, not a refusal (4xx), whatever the location'
}

/** A case that sends one token, made by `token`, and expects a refusal. */
function refuses(id: string, title: string, fix: string, token: (context: CaseContext) => Promise<string>): CheckCase {
  return {
    id,
    kind: 'must-refuse',
    title,
    fix,
    async run(context) {
      return refusal(context, await context.browser.attempt({ jar: new CookieJar(), token: await token(context) }))
    },
  }
}

/**
 * The verdict on a controller whose confirmation failed: closed, in time, and with a 5xx when the
 * service failed rather than refused; skipped when the controller never asked the service.
 */
async function failsClosed(
  context: CaseContext,
  { claims }: SignedToken,
  attempt: Attempt,
  { asked, serviceDown }: { asked: boolean; serviceDown: boolean },
): Promise<Verdict> {
  const verdict = refusal(context, attempt)
  if (verdict.outcome !== 'pass') return verdict
  if (!asked && !(await context.mock.confirmations(claims.jti, claims.otp)).length) {
    return { outcome: 'skip', evidence: `${verdict.evidence}, without asking the service: valid-sign-in says why` }
  }
  const timed = `in ${(attempt.ms / 1000).toFixed(1)} s, ${verdict.evidence}`
  if (attempt.ms > CONFIRMATION_LIMIT_MS + GRACE_MS) return { outcome: 'fail', evidence: timed }
  if (serviceDown && attempt.status < 500) {
    return {
      outcome: 'warn',
      evidence: `${timed}: a refusal, but as if the person were at fault`,
      fix: 'Answer 502 (or 503, 504) when the service fails or does not answer: the person can try again later.',
    }
  }
  return { outcome: 'pass', evidence: timed }
}

/** The confirmation fails at the mock with `status` (a redirect to `location`, with a 3xx); the controller must refuse. */
function serviceFails(id: string, status: number, title: string, fix: string, location?: string): CheckCase {
  const serviceDown = status >= 500
  return {
    id,
    kind: 'must-refuse',
    title,
    fix,
    async run(context) {
      const token = await context.tokens.signedBy(context.identity)
      await context.mock.failConfirmations(status, location)
      try {
        return await failsClosed(context, token, await context.browser.attempt({ jar: new CookieJar(), token: token.token }), { asked: false, serviceDown })
      } finally {
        await context.mock.endFailures()
      }
    },
  }
}

export const REFUSALS: CheckCase[] = [
  refuses(
    'unknown-user',
    'a valid signing by a user your store does not know',
    'Look the token’s sub up in your user store, and refuse (403) whoever it does not know or may not sign in, before you confirm (spec section 4, step 4).',
    async ({ tokens, stranger }) => (await tokens.signedBy(stranger)).token,
  ),
  refuses(
    'other-secret',
    'a token signed with another secret',
    'Verify the token’s HS256 signature with your API secret, Base64-decoded (spec section 5), before you read any claim.',
    async ({ tokens, identity }) => tokens.otherSecret(await tokens.signedBy(identity)),
  ),
  refuses(
    'alg-none',
    'a token with alg: none and no signature',
    'Accept HS256 only: refuse a token whose header names none or any other algorithm, rather than skip its signature.',
    async ({ tokens, identity }) => tokens.algNone(await tokens.signedBy(identity)),
  ),
  refuses(
    'hs-rs-confusion',
    'a token signed RS256 with a key of its own, its public key in the header',
    'Fix the algorithm (HS256) and the key (your API secret) in your code; never take either from the token’s header (alg, jwk, kid).',
    async ({ tokens, identity }) => tokens.rs256(await tokens.signedBy(identity)),
  ),
  refuses(
    'expired',
    'a token whose exp has passed, signed right',
    'Refuse a token whose exp has passed (allow a few seconds of clock skew at most).',
    async ({ tokens, identity }) => tokens.expired(await tokens.signedBy(identity)),
  ),
  {
    id: 'replayed',
    kind: 'must-refuse',
    title: 'the token of the valid sign-in, sent again',
    fix: 'Confirm every sign-in at the service, and sign in only on its 200: the confirmation consumes the challenge, so the same token again gets a 401.',
    async run(context) {
      if (!context.signIn?.accepted) return { outcome: 'skip', evidence: 'the valid sign-in did not sign in: there is no used token to replay' }
      return refusal(context, await context.browser.attempt({ jar: new CookieJar(), token: context.signIn.token.token }))
    },
  },
  refuses(
    'wrong-sub',
    'a stranger’s signing, its sub changed to your user, signed right',
    'Confirm at the service as the token’s sub, with its jti and otp, and sign in only on its 200: the service knows who signed.',
    async ({ tokens, stranger, identity }) => tokens.withSubject(await tokens.signedBy(stranger), identity),
  ),
  serviceFails(
    'service-refuses',
    401,
    'the service refuses the confirmation (401)',
    'Start the session only when the confirmation answers 200; anything else is a refusal.',
  ),
  // Where a client that follows it lands: the mock's list of its knobs, a GET that answers 200
  // (relative, so that it is on the mock as the controller reaches it). An HTTP client follows a
  // redirect by default (fetch, Python's urllib, PHP's streams, requests), turns the POST into a
  // GET, and hands the controller that page's 200 as if it were the service's confirmation.
  serviceFails(
    'service-redirects',
    302,
    'the service answers the confirmation with a redirect (302) to a page that answers 200',
    'Follow no redirect when you confirm: only the service’s own 200 confirms (fetch: redirect: "manual"; Python: an opener with no redirect handler; PHP: \'follow_location\' => 0).',
    '/__knobs/',
  ),
  serviceFails(
    'service-unavailable',
    503,
    'the service is unavailable for the confirmation (503)',
    'When the confirmation fails (5xx, or no connection), answer 502 or 503, and start no session.',
  ),
  {
    id: 'service-timeout',
    kind: 'must-refuse',
    title: `the service does not answer the confirmation: a 5xx within ${CONFIRMATION_LIMIT_MS / 1000} s`,
    fix: `Give the confirmation a time limit under ${CONFIRMATION_LIMIT_MS / 1000} s; when it runs out, answer 504 or 502, and start no session.`,
    // The controller's own time limit is what is judged, so this case waits for it: beside the
    // cases after it, so that a run takes that long once, not on top of the rest.
    background: true,
    async run(context, ready) {
      const { mock, browser } = context
      const token = await context.tokens.signedBy(context.identity)
      await mock.holdConfirmation()
      const answer = browser.attempt({ jar: new CookieJar(), token: token.token, timeoutMs: CONFIRMATION_LIMIT_MS + GRACE_MS })
      const held = await mock.heldBefore(answer)
      // A hold no request took would hold a later case's confirmation.
      if (!held) await mock.useUpHold()
      ready()
      const attempt = await answer
      // At once, not at the end of the run: a controller with no time limit of its own (and a
      // server with one worker) would keep the later cases waiting meanwhile.
      await mock.release()
      const verdict = await failsClosed(context, token, attempt, { asked: held, serviceDown: true })
      // No answer in time is this case's own flaw, and its own fix says what to do.
      return attempt.status === 0 ? { outcome: verdict.outcome, evidence: verdict.evidence } : verdict
    },
  },
]
