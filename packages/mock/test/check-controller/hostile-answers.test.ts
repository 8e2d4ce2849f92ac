// @vitest-environment node
// The check against controllers whose answers are not answers: one that drops the connection on
// a token, and one that streams a body without end. Each is a verdict whose fix names what is
// wrong, never a crash, a "could not run", or a body held in memory.
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { checkController, connectMockService, startMockService, type ControllerCheck, type MockService } from '../../src/index.js'

const ADA = 'ada@example.com'
// What the endless controller streams at most: a check that read it whole would take this much.
const ENDLESS_CAP = 64 * 1024 * 1024

let service: MockService
beforeAll(async () => {
  service = await startMockService({ testKeys: false })
})
afterAll(() => service?.close())

/** Checks a controller served by `handle`, with a key of its own on the mock. */
async function check(handle: (token: string | undefined, res: ServerResponse) => void) {
  const server: Server = createServer((req, res) => handle(req.headers['x-service-auth'] as string | undefined, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { url, key, secret } = await connectMockService({ url: service.url, isolate: true })
  try {
    const { port } = server.address() as AddressInfo
    return await checkController({ controller: `http://127.0.0.1:${port}/auth/controller`, identity: ADA, service: url, key, secret })
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

const byId = (checks: ControllerCheck[], id: string) => checks.find((check) => check.id === id)!

/** An app whose controller (/auth/controller) answers each token with `answer`, a request without one 401, and its other pages by path. */
const app =
  (answer: (res: ServerResponse) => void, pages: Record<string, (res: ServerResponse) => void>) => (token: string | undefined, res: ServerResponse) => {
    const path = new URL(res.req.url!, 'http://app').pathname
    if (path !== '/auth/controller') return void (pages[path] ?? ((res: ServerResponse) => res.writeHead(404).end()))(res)
    if (token === undefined) return void res.writeHead(401).end()
    answer(res)
  }

it('a controller that drops the connection on a token fails each case with the fix for no answer, not the case’s own', async () => {
  const { checks } = await check((token, res) => {
    // The probe without a token is answered, so that the check runs.
    if (token === undefined) res.writeHead(401).end()
    else res.socket?.destroy()
  })
  for (const id of ['valid-sign-in', 'other-secret', 'expired']) {
    expect(byId(checks, id), id).toEqual(
      expect.objectContaining({
        outcome: 'fail',
        evidence: expect.stringMatching(/^no answer \(/),
        fix: expect.stringMatching(/^Answer every request with a status, a refusal too \(a 4xx problem\), within a few seconds/),
      }),
    )
  }
  // The warnings compare with what the valid sign-in did: with no sign-in, each is a skip that says so.
  for (const id of ['token-elsewhere', 'no-requested-with', 'open-redirect', 'session-fixation', 'cookie-flags']) {
    expect(byId(checks, id), id).toEqual(
      expect.objectContaining({ outcome: 'skip', evidence: 'the valid sign-in did not sign in: nothing to compare with', fix: null }),
    )
  }
})

it('a controller that drops every connection cannot be checked, and the reason says it is there but does not answer', async () => {
  await expect(check((_token, res) => res.socket?.destroy())).rejects.toThrow(
    /^the controller at http:\/\/127\.0\.0\.1:\d+\/auth\/controller gave no answer \(.+\): the app is there, but does it answer every request, without a token too\?$/,
  )
})

it('a controller or signed-in page on a port fetch refuses (6000, 6665, …) cannot be checked, and the reason says to use another port, not that the app does not answer', async () => {
  const { url, key, secret } = await connectMockService({ url: service.url, isolate: true })
  const advice = (port: number) =>
    `port ${port} is one browsers and fetch refuse to connect to (a "bad port" of the Fetch standard), so the embed could never reach it either: use another port`
  // Nothing need listen there: fetch refuses before it connects, as the embed's would.
  await expect(checkController({ controller: 'http://127.0.0.1:6000/auth/controller', identity: ADA, service: url, key, secret })).rejects.toThrow(
    `the controller at http://127.0.0.1:6000/auth/controller cannot be called: ${advice(6000)}`,
  )
  const server: Server = createServer((_req, res) => res.writeHead(401).end())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const controller = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/controller`
    await expect(checkController({ controller, identity: ADA, signedIn: 'http://127.0.0.1:6665/welcome', service: url, key, secret })).rejects.toThrow(
      `the signed-in page http://127.0.0.1:6665/welcome cannot be asked: ${advice(6665)}`,
    )
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
})

it('a controller that refuses with a body without end is judged by its status, the body read no further than the embed reads it', async () => {
  let largest = 0
  const { checks } = await check((_token, res) => {
    res.writeHead(401, { 'Content-Type': 'application/problem+json' })
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    let sent = 0
    const more = () => {
      while (sent < ENDLESS_CAP && !res.destroyed) {
        sent += chunk.length
        if (!res.write(chunk)) return void res.once('drain', more)
      }
      res.end()
    }
    res.on('close', () => (largest = Math.max(largest, sent)))
    more()
  })
  // The embed fails it for its size (past 256 KB as it reads it), but a refusal's status is a
  // refusal all the same: no session, and "Sign-in failed".
  const seen = expect.stringMatching(/^answered 401 \(\d+ B or more\)$/)
  expect(byId(checks, 'valid-sign-in')).toEqual(expect.objectContaining({ outcome: 'fail', evidence: seen }))
  expect(byId(checks, 'alg-none')).toEqual(expect.objectContaining({ outcome: 'pass', evidence: seen }))
  // Each answer was left after its first 256 KB or so (and what the sockets held), not read whole.
  expect(largest).toBeLessThan(ENDLESS_CAP / 2)
}, 60_000)

// What the embed says when the browser's fetch fails on a redirect, and what the person reads.
const NO_ANSWER = 'the embed says "no answer from the controller" ("Sign-in failed")'
// What it says when a 2xx's location is none it goes to (hand-over.ts), in its own words.
const LOCATION_FAILED = 'the embed says "the controller\'s location is not http(s)" ("Sign-in failed")'

it.each([
  [
    'redirect',
    (res: ServerResponse) => res.writeHead(302, { Location: 'http://[::1' }).end(),
    // The browser's fetch fails on it: the embed never sees the answer.
    `answered 302 → "http://[::1" (not a URL): the browser’s fetch fails on a Location that is no URL: ${NO_ANSWER}`,
  ],
  [
    'JSON {location}',
    (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ location: 'http://[::1' })),
    `answered 200 {location: "http://[::1"} (not a URL): no browser can go there: ${LOCATION_FAILED}`,
  ],
])('a controller whose %s names no URL (http://[::1) is shown sending the browser there, quoted, and fails the valid sign-in', async (_, answer, evidence) => {
  const { checks } = await check((token, res) => (token === undefined ? res.writeHead(401).end() : answer(res)))
  expect(byId(checks, 'valid-sign-in')).toEqual(
    expect.objectContaining({
      outcome: 'fail',
      evidence,
      fix: expect.stringMatching(/^Send the browser to a path on your site/),
    }),
  )
})

it.each([
  [
    'redirect',
    (res: ServerResponse) => res.writeHead(302, { Location: 'javascript:alert(1)' }).end(),
    'answered 302 → "javascript:alert(1)" (not http(s))',
    `the browser’s fetch follows redirects to http(s) only: ${NO_ANSWER}`,
  ],
  [
    'JSON {location}',
    (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ location: 'javascript:alert(1)' })),
    'answered 200 {location: "javascript:alert(1)"} (not http(s))',
    `only an http(s) URL is a place to go: ${LOCATION_FAILED}`,
  ],
])(
  'a controller that answers every token with a %s to javascript: is no refusal: each bad token fails, the evidence quoting the location',
  async (_, answer, seen, embed) => {
    const { checks } = await check((token, res) => (token === undefined ? res.writeHead(401).end() : answer(res)))
    expect(byId(checks, 'valid-sign-in')).toEqual(expect.objectContaining({ outcome: 'fail', evidence: `${seen}: ${embed}` }))
    // The embed goes nowhere with it, yet it is a sign-in's answer to a token the controller had to refuse.
    for (const id of ['other-secret', 'alg-none', 'expired']) {
      expect(byId(checks, id), id).toEqual(
        expect.objectContaining({ outcome: 'fail', evidence: `${seen}: a sign-in’s answer, not a refusal (4xx), whatever the location` }),
      )
    }
    expect(byId(checks, 'replayed')).toEqual(expect.objectContaining({ outcome: 'skip' }))
  },
)

it('a controller that answers every token with a redirect that has no Location signs no one in: the embed takes it for a refusal, yet it is none', async () => {
  const { checks } = await check((token, res) => (token === undefined ? res.writeHead(401).end() : res.writeHead(302).end()))
  expect(byId(checks, 'valid-sign-in')).toEqual(
    expect.objectContaining({
      outcome: 'fail',
      evidence: 'answered 302 → (no Location): the embed takes it for a refusal ("Sign-in failed")',
      fix: expect.stringMatching(/^Answer the embed with a redirect to where the person goes next/),
    }),
  )
  // Not "the embed signs in": only a 4xx is a refusal, and this is none.
  for (const id of ['other-secret', 'alg-none', 'expired']) {
    expect(byId(checks, id), id).toEqual(
      expect.objectContaining({ outcome: 'fail', evidence: 'answered 302 → (no Location): a redirect with no Location, not a refusal (4xx)' }),
    )
  }
  // With no sign-in to compare with, the warnings say so rather than judge one.
  expect(byId(checks, 'cookie-flags')).toEqual(
    expect.objectContaining({ outcome: 'skip', evidence: 'the valid sign-in did not sign in: nothing to compare with' }),
  )
})

it.each([
  ['https://elsewhere.example/welcome', 'https://elsewhere.example/welcome'],
  // Protocol-relative: on the controller's scheme, but another host.
  ['//elsewhere.example/welcome', 'http://elsewhere.example/welcome'],
])(
  'a controller that answers every token with a 302 to another origin (%s) signs no one in: the embed’s same-origin fetch fails on it, and the fix is the embed’s own advice',
  async (location, shown) => {
    const { checks } = await check((token, res) => (token === undefined ? res.writeHead(401).end() : res.writeHead(302, { Location: location }).end()))
    expect(byId(checks, 'valid-sign-in')).toEqual(
      expect.objectContaining({
        outcome: 'fail',
        evidence: `answered 302 → ${shown}: the embed’s fetch is same-origin, and fails on a redirect to another origin: ${NO_ANSWER}`,
        fix: expect.stringMatching(/^Answer 200 \{"location": "https:\/\/…"\} instead, as the embed’s console says/),
      }),
    )
    // Not "the embed signs in": the embed goes nowhere with it, yet it is no refusal either.
    for (const id of ['other-secret', 'alg-none', 'expired']) {
      expect(byId(checks, id), id).toEqual(
        expect.objectContaining({ outcome: 'fail', evidence: `answered 302 → ${shown}: a sign-in’s answer, not a refusal (4xx), whatever the location` }),
      )
    }
    expect(byId(checks, 'cookie-flags')).toEqual(
      expect.objectContaining({ outcome: 'skip', evidence: 'the valid sign-in did not sign in: nothing to compare with' }),
    )
  },
)

it.each([
  [300, { Location: '/welcome' }, 'answered 300 → /welcome'],
  [304, {}, 'answered 304'],
  [305, { Location: '/welcome' }, 'answered 305 → /welcome'],
  [306, {}, 'answered 306'],
])(
  'a controller that answers every token with a %i, a 3xx the browser’s fetch does not follow, signs no one in: the embed takes it for a refusal, yet it is none',
  async (status, headers, seen) => {
    const { checks } = await check((token, res) => (token === undefined ? res.writeHead(401).end() : res.writeHead(status, headers).end()))
    expect(byId(checks, 'valid-sign-in')).toEqual(
      expect.objectContaining({
        outcome: 'fail',
        evidence: `${seen}: the browser’s fetch follows 301, 302, 303, 307 and 308 only, and the embed takes a ${status} for a refusal ("Sign-in failed")`,
        fix: expect.stringMatching(/^Answer the embed with a redirect to where the person goes next/),
      }),
    )
    for (const id of ['other-secret', 'alg-none', 'expired']) {
      expect(byId(checks, id), id).toEqual(expect.objectContaining({ outcome: 'fail', evidence: `${seen}: a ${status}, not a refusal (4xx)` }))
    }
    expect(byId(checks, 'cookie-flags')).toEqual(
      expect.objectContaining({ outcome: 'skip', evidence: 'the valid sign-in did not sign in: nothing to compare with' }),
    )
  },
)

it.each([
  [302, '/welcome', () => '/welcome', '/welcome'],
  [303, 'welcome, relative to the controller', () => 'welcome', '/auth/welcome'],
  [307, 'its own origin, in full', (host: string) => `http://${host}/welcome`, '/welcome'],
])('a controller that answers every token with a %i to %s signs each in, as the embed follows it there', async (status, _, location, shown) => {
  const { checks } = await check(
    app((res) => res.writeHead(status, { Location: location(res.req.headers.host!) }).end(), { [shown]: (res) => res.writeHead(200).end() }),
  )
  for (const id of ['other-secret', 'alg-none', 'expired']) {
    expect(byId(checks, id), id).toEqual(
      expect.objectContaining({ outcome: 'fail', evidence: `answered ${status} → ${shown}, which answered 200: the embed signs in` }),
    )
  }
})

// The redirects a controller answers with, followed as the embed's fetch follows them: on its
// origin, with the embed's headers and the cookies they set, to the answer the embed reads.

it('a controller whose redirects lead on to a page signs each in, and the check follows them with the cookies they set, as a browser does', async () => {
  const { checks } = await check(
    app((res) => res.writeHead(302, { Location: '/step', 'Set-Cookie': 'step=1; Path=/' }).end(), {
      // Only a browser that kept the cookie gets on, and only the embed's request: the token and X-Requested-With go along.
      '/step': (res) => {
        const { cookie, 'x-requested-with': xhr, 'x-service-auth': token } = res.req.headers
        res.writeHead(cookie === 'step=1' && xhr === 'XMLHttpRequest' && token ? 302 : 401, { Location: '/welcome' }).end()
      },
      '/welcome': (res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>Welcome</p>'),
    }),
  )
  const seen = 'answered 302 → /step, which answered 302 → /welcome, which answered 200'
  for (const id of ['other-secret', 'alg-none', 'expired']) {
    expect(byId(checks, id), id).toEqual(expect.objectContaining({ outcome: 'fail', evidence: `${seen}: the embed signs in` }))
  }
})

it('a controller whose redirect leads to a page that refuses the browser signs no one in: the embed reads that refusal as the controller’s', async () => {
  const { checks } = await check(
    app((res) => res.writeHead(302, { Location: '/welcome' }).end(), {
      '/welcome': (res) => res.writeHead(401, { 'Content-Type': 'application/problem+json' }).end(JSON.stringify({ title: 'Sign in first' })),
    }),
  )
  const seen = 'answered 302 → /welcome, which answered 401 ("Sign in first")'
  expect(byId(checks, 'valid-sign-in')).toEqual(
    expect.objectContaining({
      outcome: 'fail',
      evidence: `${seen}: the embed takes it for a refusal ("Sign-in failed")`,
      fix: expect.stringMatching(
        /^Answer 200 \{"location": "\/welcome"\} instead of redirecting: the embed’s fetch follows your redirects .+ takes what \/welcome answers/,
      ),
    }),
  )
  // What the embed reads is a refusal, with the cookies the controller set: no sign-in, as far as the answers tell.
  for (const id of ['other-secret', 'alg-none', 'expired']) expect(byId(checks, id), id).toEqual(expect.objectContaining({ outcome: 'pass', evidence: seen }))
})

it('a controller whose redirect leads to a page that redirects to another origin signs no one in: the embed’s same-origin fetch fails on the second', async () => {
  const { checks } = await check(
    app((res) => res.writeHead(302, { Location: '/welcome' }).end(), {
      '/welcome': (res) => res.writeHead(302, { Location: 'https://idp.example/login' }).end(),
    }),
  )
  const seen = 'answered 302 → /welcome, which answered 302 → https://idp.example/login'
  expect(byId(checks, 'valid-sign-in')).toEqual(
    expect.objectContaining({
      outcome: 'fail',
      evidence: `${seen}: the embed’s fetch is same-origin, and fails on a redirect to another origin: ${NO_ANSWER}`,
      fix: expect.stringMatching(/^Answer 200 \{"location": "https:\/\/…"\} instead, as the embed’s console says/),
    }),
  )
  for (const id of ['other-secret', 'alg-none', 'expired']) {
    expect(byId(checks, id), id).toEqual(
      expect.objectContaining({ outcome: 'fail', evidence: `${seen}: a sign-in’s answer, not a refusal (4xx), whatever the location` }),
    )
  }
})

it.each([
  // The controller's redirect and 19 more: the browser's fetch follows 20.
  [20, 'answered 302 → /hop/1, which answered 302 → /hop/2, which answered 302 → /hop/3, … 17 more, which answered 200', 'the embed signs in'],
  // One more, and the fetch fails.
  [
    21,
    'answered 302 → /hop/1, which answered 302 → /hop/2, which answered 302 → /hop/3, … 17 more, which answered 302 → /hop/21',
    'a sign-in’s answer, not a refusal (4xx), whatever the location',
  ],
])(
  'a controller whose answer leads through %i redirects is judged as the browser’s fetch takes them, which follows 20 at most',
  async (redirects, seen, judged) => {
    const hops = Object.fromEntries(
      Array.from({ length: redirects }, (_, hop) => [
        `/hop/${hop + 1}`,
        (res: ServerResponse) => (hop + 1 < redirects ? res.writeHead(302, { Location: `/hop/${hop + 2}` }) : res.writeHead(200)).end(),
      ]),
    )
    const { checks } = await check(app((res) => res.writeHead(302, { Location: '/hop/1' }).end(), hops))
    for (const id of ['other-secret', 'alg-none', 'expired'])
      expect(byId(checks, id), id).toEqual(expect.objectContaining({ outcome: 'fail', evidence: `${seen}: ${judged}` }))
    if (redirects === 21) {
      expect(byId(checks, 'valid-sign-in')).toEqual(
        expect.objectContaining({
          outcome: 'fail',
          evidence: `${seen}: the browser’s fetch follows 20 redirects at most: ${NO_ANSWER}`,
          fix: 'Answer 200 {"location": "/welcome"} instead of redirecting: the embed’s fetch follows 20 redirects at most, and yours go on (in a loop?).',
        }),
      )
    }
  },
)

// The open-redirect warning: the check sends next=…, redirect=… and the like naming a site of its
// own, and looks where the embed would send the browser, at the end of the redirects its fetch
// follows, and at the redirect where the fetch stops on another origin, whoever answered it.

/** The site the check names in the query (warnings.ts's ELSEWHERE). */
const OPEN_REDIRECT = 'https://open-redirect.check.invalid/'
/** The `next` the request named, if any. */
const nextOf = (res: ServerResponse) => new URL(res.req.url!, 'http://app').searchParams.get('next')
/** A redirect to /after, passing `next` on. */
const toAfter = (res: ServerResponse) => {
  const next = nextOf(res)
  res.writeHead(302, { Location: next ? `/after?next=${encodeURIComponent(next)}` : '/after' }).end()
}
const AFTER = `/after?next=${encodeURIComponent(OPEN_REDIRECT)}`
const welcome = { '/welcome': (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>Welcome</p>') }
const json = (res: ServerResponse, location: string) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ location }))
const CASE_FIX = 'Send the browser to a path of your own site (or to an origin on a list of yours), never to a target read from the request.'
const THROUGH_AFTER = `${CASE_FIX} /after, which your redirects lead through, sends it where the request says.`
const REDIRECTED = 'a redirect where the request said (the embed’s same-origin fetch fails on it, but the redirect is open)'

it.each([
  [
    'its own 200 {"location"}',
    app((res) => json(res, nextOf(res) ?? '/welcome'), welcome),
    `answered 200 {location: "${OPEN_REDIRECT}"}: the embed sends the browser where the request said`,
    CASE_FIX,
  ],
  [
    'its own 302',
    app((res) => res.writeHead(302, { Location: nextOf(res) ?? '/welcome' }).end(), welcome),
    `answered 302 → ${OPEN_REDIRECT}: ${REDIRECTED}`,
    CASE_FIX,
  ],
  [
    'the 200 {"location"} of a page its redirect leads to',
    app(toAfter, { ...welcome, '/after': (res) => json(res, nextOf(res) ?? '/welcome') }),
    `answered 302 → ${AFTER}, which answered 200 {location: "${OPEN_REDIRECT}"}: the embed sends the browser where the request said`,
    THROUGH_AFTER,
  ],
  [
    'the 302 of a page its redirect leads to',
    app(toAfter, { ...welcome, '/after': (res) => res.writeHead(302, { Location: nextOf(res) ?? '/welcome' }).end() }),
    `answered 302 → ${AFTER}, which answered 302 → ${OPEN_REDIRECT}: ${REDIRECTED}`,
    THROUGH_AFTER,
  ],
])(
  'a controller that signs in with next=… sending the browser there by %s is warned of, wherever along its redirects that is',
  async (_, controller, evidence, fix) => {
    const { checks } = await check(controller)
    expect(byId(checks, 'open-redirect')).toEqual(expect.objectContaining({ outcome: 'warn', evidence, fix }))
  },
)

it('a controller whose redirects pass next=… on to a page that does not go there is not warned of: the embed lands on the controller’s origin', async () => {
  const { checks } = await check(app(toAfter, { ...welcome, '/after': (res) => res.writeHead(302, { Location: '/welcome' }).end() }))
  expect(byId(checks, 'open-redirect')).toEqual(
    expect.objectContaining({ outcome: 'pass', evidence: `answered 302 → ${AFTER}, which answered 302 → /welcome, which answered 200`, fix: null }),
  )
})

// Each case in an array of its own, so that it.each hands the array value over as one argument.
it.each([[5], [true], [{}], [['/welcome']]])(
  'a controller that answers every token 200 {"location": %j}, no string, signs no one in: the embed fails on it, as it says, and it is no refusal',
  async (value) => {
    const { checks } = await check((token, res) =>
      token === undefined ? res.writeHead(401).end() : res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ location: value })),
    )
    const seen = `answered 200 {location: ${JSON.stringify(value)}} (not a string)`
    expect(byId(checks, 'valid-sign-in')).toEqual(
      expect.objectContaining({
        outcome: 'fail',
        evidence: `${seen}: only a string names a place to go: ${LOCATION_FAILED}`,
        fix: expect.stringMatching(/^Send the browser to a path on your site \(Location: \/welcome, or \{"location": "\/welcome"\}\)/),
      }),
    )
    for (const id of ['other-secret', 'alg-none', 'expired']) {
      expect(byId(checks, id), id).toEqual(
        expect.objectContaining({ outcome: 'fail', evidence: `${seen}: a sign-in’s answer, not a refusal (4xx), whatever the location` }),
      )
    }
  },
)

// The embed tests the location for truth first: a falsy one is none, and the page stays.
it.each([null, 0, false, ''])(
  'a controller that answers a valid sign-in 200 {"location": %j} names no place: the embed stays on the login page',
  async (value) => {
    const { checks } = await check((token, res) =>
      token === undefined ? res.writeHead(401).end() : res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ location: value })),
    )
    expect(byId(checks, 'valid-sign-in')).toEqual(
      expect.objectContaining({ outcome: 'fail', evidence: 'answered 200 without a location: the embed stays on the login page' }),
    )
  },
)

it.each([
  ['welcome', '{location: "welcome"} (relative to the login page)'],
  ['?signed=1', '{location: "?signed=1"} (relative to the login page)'],
  // A path, or a URL, lands in the same place from any page: shown as the embed goes there.
  ['/welcome', '{location: "/welcome"}'],
])(
  'a controller that answers every token 200 {"location": "%s"} signs each in, the location shown as the embed resolves it: against the login page, which the check does not know',
  async (location, shown) => {
    const { checks } = await check((token, res) =>
      token === undefined ? res.writeHead(401).end() : res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ location })),
    )
    for (const id of ['other-secret', 'alg-none', 'expired']) {
      expect(byId(checks, id), id).toEqual(expect.objectContaining({ outcome: 'fail', evidence: `answered 200 ${shown}: the embed signs in` }))
    }
  },
)

it('a controller that answers a valid sign-in 200 with no location leaves the person on the login page', async () => {
  const { checks } = await check((token, res) =>
    token === undefined ? res.writeHead(401).end() : res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'),
  )
  expect(byId(checks, 'valid-sign-in')).toEqual(
    expect.objectContaining({ outcome: 'fail', evidence: 'answered 200 without a location: the embed stays on the login page' }),
  )
})

it.each([
  ['as text/html', 'text/html', 'Content-Type: text/html'],
  ['with no Content-Type', undefined, 'no Content-Type'],
])(
  'a controller that answers every token 200 {"location"} %s signs no one in: the embed reads no body but JSON, and stays on the login page',
  async (_, contentType, shown) => {
    const { checks } = await check((token, res) =>
      token === undefined
        ? res.writeHead(401).end()
        : res.writeHead(200, contentType ? { 'Content-Type': contentType } : {}).end(JSON.stringify({ location: '/welcome' })),
    )
    const seen = `answered 200 {location: "/welcome"} (${shown})`
    expect(byId(checks, 'valid-sign-in')).toEqual(
      expect.objectContaining({
        outcome: 'fail',
        evidence: `${seen}: the embed reads a body only when it is JSON (Content-Type: application/json): it stays on the login page`,
        fix: expect.stringMatching(/^Send the location with the header Content-Type: application\/json/),
      }),
    )
    // Not "the embed signs in", yet a 2xx, which the embed takes for one: no refusal.
    for (const id of ['other-secret', 'alg-none', 'expired']) {
      expect(byId(checks, id), id).toEqual(expect.objectContaining({ outcome: 'fail', evidence: `${seen}: the embed takes any 2xx for a sign-in` }))
    }
  },
)

it('a controller that answers 200 {"location"} as Application/JSON signs in, as the embed reads a JSON type in any case', async () => {
  const { checks } = await check((token, res) =>
    token === undefined ? res.writeHead(401).end() : res.writeHead(200, { 'Content-Type': 'Application/JSON' }).end(JSON.stringify({ location: '/welcome' })),
  )
  expect(byId(checks, 'alg-none')).toEqual(expect.objectContaining({ outcome: 'fail', evidence: 'answered 200 {location: "/welcome"}: the embed signs in' }))
})

// The embed reads no more than 256 KB of an answer (service-auth's LARGEST_ANSWER, which the
// check takes from the package): one whose Content-Length says more, or whose JSON body goes past
// it as it comes, fails whatever its status, and the person is not signed in.

/** A 200 {"location": "/welcome"} padded to `size` bytes, with its Content-Length or chunked. */
const padded = (size: number, sent: 'Content-Length' | 'chunked') => (res: ServerResponse) => {
  const empty = JSON.stringify({ location: '/welcome', padding: '' })
  const body = JSON.stringify({ location: '/welcome', padding: 'x'.repeat(size - empty.length) })
  res.writeHead(200, { 'Content-Type': 'application/json', ...(sent === 'Content-Length' && { 'Content-Length': String(Buffer.byteLength(body)) }) })
  // Written in parts, so that a chunked body comes in chunks, as a streamed one would.
  for (let at = 0; at < body.length; at += 64 * 1024) res.write(body.slice(at, at + 64 * 1024))
  res.end()
}

it.each(['Content-Length', 'chunked'] as const)(
  'a controller that answers a valid sign-in with 256 KB of JSON (%s) signs it in; one byte more, and the embed fails it, as the check says, with its size',
  async (sent) => {
    const limit = 256 * 1024
    const within = await check((token, res) => (token === undefined ? res.writeHead(401).end() : padded(limit, sent)(res)))
    expect(byId(within.checks, 'alg-none')).toEqual(
      expect.objectContaining({ outcome: 'fail', evidence: 'answered 200 {location: "/welcome"}: the embed signs in' }),
    )

    const { checks } = await check((token, res) => (token === undefined ? res.writeHead(401).end() : padded(limit + 1, sent)(res)))
    // With its Content-Length the embed says that size; chunked, the bytes it read by the time they passed the limit.
    const size = sent === 'Content-Length' ? String(limit + 1) : '\\d+'
    const seen = `answered 200 \\(${size} B or more\\)`
    expect(byId(checks, 'valid-sign-in')).toEqual(
      expect.objectContaining({
        outcome: 'fail',
        evidence: expect.stringMatching(
          new RegExp(
            `^${seen}: the embed reads no answer over 256 KB: it says "an answer of ${size} B or more \\(200\\) is over 256 KB\\." \\("Sign-in failed"\\)$`,
          ),
        ),
        fix: expect.stringMatching(
          new RegExp(`^Answer with less than 256 KB \\(262144 B\\), which is the most of an answer the embed reads: yours was ${size} B or more\\.`),
        ),
      }),
    )
    // Not "the embed signs in", yet a sign-in's answer: no refusal.
    for (const id of ['other-secret', 'alg-none', 'expired']) {
      expect(byId(checks, id), id).toEqual(
        expect.objectContaining({
          outcome: 'fail',
          evidence: expect.stringMatching(new RegExp(`^${seen}: a sign-in’s answer, not a refusal \\(4xx\\), however large$`)),
        }),
      )
    }
  },
)

it('a controller whose redirect ends on a page whose Content-Length is over 256 KB signs no one in: the embed fails what its fetch read there', async () => {
  const page = 'x'.repeat(300 * 1024)
  const { checks } = await check(
    app((res) => res.writeHead(302, { Location: '/welcome' }).end(), {
      '/welcome': (res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': String(page.length) }).end(page),
    }),
  )
  expect(byId(checks, 'valid-sign-in')).toEqual(
    expect.objectContaining({
      outcome: 'fail',
      evidence: `answered 302 → /welcome, which answered 200 (307200 B or more): the embed reads no answer over 256 KB: it says "an answer of 307200 B or more (200) is over 256 KB." ("Sign-in failed")`,
      fix: 'Answer 200 {"location": "/welcome"} instead of redirecting: the embed’s fetch follows your redirects, and takes what /welcome answers, 307200 B or more, for your answer, of which it reads no more than 256 KB (262144 B).',
    }),
  )
})

it('a controller whose redirect ends on a page over 256 KB with no Content-Length signs each in: the embed reads no page, at any size', async () => {
  const { checks } = await check(
    app((res) => res.writeHead(302, { Location: '/welcome' }).end(), {
      '/welcome': (res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' })
        for (let part = 0; part < 5; part++) res.write('x'.repeat(64 * 1024))
        res.end()
      },
    }),
  )
  for (const id of ['other-secret', 'alg-none', 'expired']) {
    expect(byId(checks, id), id).toEqual(
      expect.objectContaining({ outcome: 'fail', evidence: 'answered 302 → /welcome, which answered 200: the embed signs in' }),
    )
  }
})

it('a controller that refuses with a problem it does not call JSON is shown refusing with no reason, as the embed’s console says none', async () => {
  const { checks } = await check((_token, res) => res.writeHead(401, { 'Content-Type': 'text/plain' }).end(JSON.stringify({ detail: 'bad token' })))
  expect(byId(checks, 'alg-none')).toEqual(expect.objectContaining({ outcome: 'pass', evidence: 'answered 401' }))
})

it('a cookie whose name holds a terminal escape (an 8-bit CSI) is named in the evidence with it as a \\u escape', async () => {
  const { checks } = await check((token, res) =>
    token === undefined
      ? res.writeHead(401).end()
      : res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': 'session\u009b2J=1; Path=/' }).end(JSON.stringify({ location: '/welcome' })),
  )
  expect(byId(checks, 'cookie-flags')).toEqual(
    expect.objectContaining({ outcome: 'warn', evidence: 'session\\u009b2J without HttpOnly; session\\u009b2J without SameSite' }),
  )
})
