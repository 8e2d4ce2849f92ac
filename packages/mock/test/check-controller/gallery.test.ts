// @vitest-environment node
// The check against the gallery: the controller written right passes every case with no warning;
// each controller with one flaw fails exactly the cases that flaw lets through, and no other. All
// against one mock, each controller with a key of its own, side by side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkController, connectMockService, startMockService, type ControllerCheckReport, type MockService } from '../../src/index.js'
import { ELSEWHERE, type Flaw, JAVASCRIPT, startGalleryApp } from './gallery.js'

const ADA = 'ada@example.com'

/** Each flaw, and the cases it fails: the first named is the one its flaw is; the rest follow from it. */
const GALLERY: Record<Flaw, string[]> = {
  'skips the signature check': ['other-secret', 'alg-none', 'hs-rs-confusion'],
  'accepts alg: none': ['alg-none'],
  'ignores exp': ['expired'],
  'never confirms': ['valid-sign-in', 'replayed', 'wrong-sub', 'service-refuses', 'service-redirects', 'service-unavailable', 'service-timeout'],
  'confirms but ignores the answer': ['service-refuses', 'replayed', 'wrong-sub', 'service-redirects', 'service-unavailable'],
  'fails open when the service is down': ['service-unavailable', 'service-timeout'],
  "follows the service's redirects": ['service-redirects'],
  'skips the user store': ['unknown-user'],
  // The session starts, so only the valid sign-in fails: the embed does not go where it is sent.
  'sends the browser to javascript:': ['valid-sign-in'],
  'redirects the browser to javascript:': ['valid-sign-in'],
  // The session starts, but the embed's same-origin fetch fails on the redirect: the person stays, told "Sign-in failed".
  'redirects the browser to another origin': ['valid-sign-in'],
}

let service: MockService
beforeAll(async () => {
  service = await startMockService({ testKeys: false })
})
afterAll(() => service?.close())

/** Starts the app with a key of its own on the shared mock, and checks it; `signedIn` says whether the check is given the signed-in page. */
async function check(flaw: Flaw | Flaw[] | undefined, { signedIn = true } = {}): Promise<ControllerCheckReport> {
  const { url, key, secret } = await connectMockService({ url: service.url, isolate: true })
  const app = await startGalleryApp({ flaw, service: { url, key, secret }, users: new Set([ADA]) })
  try {
    return await checkController({
      controller: `${app.url}/auth/controller`,
      identity: ADA,
      ...(signedIn && { signedIn: `${app.url}/welcome` }),
      service: url,
      key,
      secret,
    })
  } finally {
    await app.close()
  }
}

const withOutcome = (report: ControllerCheckReport, outcome: string) =>
  report.checks
    .filter((check) => check.outcome === outcome)
    .map(({ id }) => id)
    .sort()

describe('the controller written right', () => {
  it.concurrent.each([true, false])('passes every case, with no warning and nothing skipped (signed-in page given: %s)', async (signedIn) => {
    const report = await check(undefined, { signedIn })
    expect(report.checks.map(({ id, outcome }) => [id, outcome])).toEqual(report.checks.map(({ id }) => [id, 'pass']))
    expect(report.checks.every(({ fix }) => fix === null)).toBe(true)
  })
})

describe('a controller with one flaw', () => {
  it.concurrent.each(Object.entries(GALLERY))('%s: fails %j, each with its fix, and passes the rest', async (flaw, failing) => {
    const report = await check(flaw as Flaw)
    expect(withOutcome(report, 'fail')).toEqual([...failing].sort())
    for (const check of report.checks.filter(({ outcome }) => outcome === 'fail')) {
      expect(check.evidence, check.id).not.toBe('')
      expect(check.fix?.length, check.id).toBeGreaterThan(40)
    }
    // Nothing else is off: no warning, and nothing left unjudged.
    expect(withOutcome(report, 'warn')).toEqual([])
    expect(withOutcome(report, 'skip')).toEqual([])
  })

  it.concurrent('without the signed-in page, judged by its answers: the same verdicts', async () => {
    const report = await check('confirms but ignores the answer', { signedIn: false })
    expect(withOutcome(report, 'fail')).toEqual([...GALLERY['confirms but ignores the answer']].sort())
    expect(report.checks.find(({ id }) => id === 'replayed')!.evidence).toBe('answered 200 {location: "/welcome"}: the embed signs in')
  })

  const HTTP_ONLY = 'Send the browser to a path on your site (Location: /welcome, or {"location": "/welcome"}), or to an http(s) URL.'
  it.concurrent.each([
    [
      'sends the browser to javascript:',
      `answered 200 {location: ${JSON.stringify(JAVASCRIPT)}} (not http(s))`,
      'only an http(s) URL is a place to go: the embed says "the controller\'s location is not http(s)" ("Sign-in failed")',
      HTTP_ONLY,
    ],
    [
      'redirects the browser to javascript:',
      `answered 302 → ${JSON.stringify(JAVASCRIPT)} (not http(s))`,
      'the browser’s fetch follows redirects to http(s) only: the embed says "no answer from the controller" ("Sign-in failed")',
      HTTP_ONLY,
    ],
    [
      'redirects the browser to another origin',
      `answered 302 → ${ELSEWHERE}`,
      'the embed’s fetch is same-origin, and fails on a redirect to another origin: the embed says "no answer from the controller" ("Sign-in failed")',
      'Answer 200 {"location": "https://…"} instead, as the embed’s console says: it calls the controller in same-origin mode, ' +
        'so that the token never goes to another origin, and its fetch fails on a redirect there.',
    ],
  ] as const)(
    '%s, after it confirmed: the valid sign-in fails, saying what the embed does, and nothing counts it a sign-in',
    async (flaw, seen, embed, fix) => {
      for (const signedIn of [true, false]) {
        const report = await check(flaw, { signedIn })
        const valid = report.checks.find(({ id }) => id === 'valid-sign-in')!
        expect(valid, `signed-in page given: ${signedIn}`).toEqual({
          id: 'valid-sign-in',
          title: expect.any(String),
          outcome: 'fail',
          evidence: `${seen}${signedIn ? '; GET /welcome: 200, signed in' : ''}: ${embed}`,
          fix,
        })
        if (signedIn) continue
        // Judged by its answers, the browser is not signed in: what builds on the sign-in has nothing to judge.
        expect(withOutcome(report, 'fail')).toEqual(['valid-sign-in'])
        expect(withOutcome(report, 'skip')).toEqual([
          'cookie-flags',
          'cross-site',
          'no-requested-with',
          'open-redirect',
          'replayed',
          'session-fixation',
          'token-elsewhere',
        ])
      }
    },
  )

  it.concurrent('never confirms, and redirects to another origin, with the browser signed in: the valid sign-in names both flaws and both fixes, not only the first it met', async () => {
    const report = await check(['never confirms', 'redirects the browser to another origin'])
    const valid = report.checks.find(({ id }) => id === 'valid-sign-in')!
    expect(valid.outcome).toBe('fail')
    expect(valid.evidence).toMatch(
      new RegExp(
        `^answered 302 → ${ELSEWHERE}; GET /welcome: 200, signed in: the embed’s fetch is same-origin, .*; and no confirmation of challenge [0-9a-f-]+ reached the mock service at ${service.url}$`,
      ),
    )
    expect(valid.fix).toMatch(/^Answer 200 \{"location": "https:\/\/…"\} instead, .* Confirm every sign-in at the service before you answer: POST /)
  })
})
