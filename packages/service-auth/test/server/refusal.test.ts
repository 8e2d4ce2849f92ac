// @vitest-environment node
// Each refusal of the controller as the integrator's log shows it: one line naming the cause and
// the fix, by default on console.warn, or handed to onRefused; never the token.
import { randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'
import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest'
import {
  createClient,
  handleControllerRequest,
  ServiceError,
  ServiceUnreachableError,
  type ControllerOptions,
  type RefusalReason,
} from '../../src/server/index.js'

const secret = randomBytes(32).toString('base64')
const otherSecret = randomBytes(32).toString('base64')
const key = 'pk_live'
const baseUrl = 'https://api.example'

type User = { id: number }
let authenticate: Mock<(identifier: string, confirmation: { challenge: string; otp: string }) => Promise<unknown>>
let options: ControllerOptions<User>
let warn: Mock<(...args: unknown[]) => void>

beforeEach(() => {
  authenticate = vi.fn(async () => ({}))
  options = {
    client: { key, baseUrl, authenticate },
    secret,
    findUser: (identifier) => (identifier === 'ada@example.com' ? { id: 1 } : undefined),
    startSession: () => '/welcome',
  }
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {}) as never
})

const signed = (claims: Record<string, unknown> = {}, { signWith = secret, lifetime = 60 } = {}) => {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ jti: 'challenge-1', sub: 'ada@example.com', otp: 'otp-493021', iat: now, exp: now + lifetime, aud: key, iss: baseUrl, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(Buffer.from(signWith, 'base64'))
}

/** The embed's request with this token; `xhr: false` leaves out its X-Requested-With, as a link or a form would; `site`, its Sec-Fetch-Site. */
const xhr = (token: string | undefined, { xhr = true, site = 'same-origin' } = {}) => ({
  headers: { ...(xhr && { 'x-requested-with': 'XMLHttpRequest' }), ...(token !== undefined && { 'x-service-auth': token }), 'sec-fetch-site': site },
})

const PREFIX = 'service-auth/server refused a sign-in'

interface Case {
  token: () => Promise<string | undefined>
  setUp?: () => void
  status: number
  /** The problem's detail, as the browser gets it. */
  detail: string
  line: string
  /** Whether onRefused gets the claims: the token was good. */
  verified?: boolean
  /** Sent without X-Requested-With: XMLHttpRequest. */
  plain?: boolean
  /** The Sec-Fetch-Site header the browser sends. */
  site?: string
}

const cases: Record<RefusalReason, Case> = {
  'not-xhr': {
    detail: 'Only the sign-in embed may sign in here.',
    token: () => signed(),
    plain: true,
    status: 400,
    line: `${PREFIX} (400, not-xhr): request without X-Requested-With: XMLHttpRequest, which the embed always sends and another site cannot add without your CORS consent: is it a link, a form or a script of your own?`,
  },
  'cross-site': {
    detail: 'Only the sign-in embed on this site may sign in here.',
    token: () => signed(),
    site: 'cross-site',
    status: 403,
    line: `${PREFIX} (403, cross-site): request from another site's page (Sec-Fetch-Site: cross-site), where the embed calls its own origin: does your CORS setup let other origins send credentials with X-Requested-With?`,
  },
  'no-token': {
    detail: 'There is no token.',
    token: async () => undefined,
    status: 401,
    line: `${PREFIX} (401, no-token): no token in the X-Service-Auth header: is the request from the embed, and does the header option match the page's data-service-auth-header?`,
  },
  malformed: {
    detail: 'The token is not an HS256 JWT.',
    token: async () => 'not-a-jwt',
    status: 401,
    line: `${PREFIX} (401, malformed): token malformed (The token is not an HS256 JWT.): is the X-Service-Auth header's value the token the embed sent?`,
  },
  signature: {
    detail: 'The token is not signed with this secret.',
    token: () => signed({}, { signWith: otherSecret }),
    status: 401,
    line: `${PREFIX} (401, signature): token not signed with this secret: does SERVICE_SECRET match the key?`,
  },
  expired: {
    detail: 'The token has expired.',
    token: () => signed({ iat: Math.floor(Date.now() / 1000) - 400, exp: Math.floor(Date.now() / 1000) - 100 }),
    status: 401,
    line: `${PREFIX} (401, expired): token too old (The token has expired.): is this server's clock right?`,
  },
  'not-yet-valid': {
    detail: 'The token is not valid yet.',
    token: () => signed({ nbf: Math.floor(Date.now() / 1000) + 60 }),
    status: 401,
    line: `${PREFIX} (401, not-yet-valid): token from the future (The token is not valid yet.): is this server's clock right?`,
  },
  claims: {
    detail: 'The token claims to be good for 31536000 s from its iat; no more than 300 s is taken.',
    token: () => signed({}, { lifetime: 365 * 24 * 3600 }),
    status: 401,
    line: `${PREFIX} (401, claims): token's claims refused (The token claims to be good for 31536000 s from its iat; no more than 300 s is taken.): is it a sign-in token from the service?`,
  },
  audience: {
    detail: 'The token is for the API key "pk_other", not "pk_live".',
    token: () => signed({ aud: 'pk_other' }),
    status: 401,
    line: `${PREFIX} (401, audience): token for another key (The token is for the API key "pk_other", not "pk_live".): does SERVICE_KEY match the page's data-service-key?`,
  },
  issuer: {
    detail: 'The token was issued by "https://other.example", not by the service at "https://api.example".',
    token: () => signed({ iss: 'https://other.example' }),
    status: 401,
    line: `${PREFIX} (401, issuer): token from another service (The token was issued by "https://other.example", not by the service at "https://api.example".): does SERVICE_URL match the page's data-service-api?`,
  },
  'unknown-user': {
    detail: 'This user may not sign in here.',
    token: () => signed({ sub: 'test@example.com' }),
    status: 403,
    line: `${PREFIX} (403, unknown-user): user test@example.com not in your store: findUser returned nothing`,
    verified: true,
  },
  'not-confirmed': {
    detail: 'The service did not confirm this sign-in.',
    token: () => signed(),
    setUp: () => authenticate.mockRejectedValue(new ServiceError(401, { title: 'Unauthorized', detail: 'The challenge has been used already.' })),
    status: 401,
    line: `${PREFIX} (401, not-confirmed): sign-in of ada@example.com not confirmed by the service (401 Unauthorized: The challenge has been used already.): a token used twice, or a challenge of another key?`,
    verified: true,
  },
  locked: {
    detail: 'This identity is locked.',
    token: () => signed(),
    setUp: () => authenticate.mockRejectedValue(new ServiceError(423, { title: 'Locked' })),
    status: 423,
    line: `${PREFIX} (423, locked): identity ada@example.com locked at the service: unlock it with client.identities.update(identifier, { locked: false })`,
    verified: true,
  },
  unreachable: {
    detail: 'The sign-in service could not confirm this sign-in.',
    token: () => signed(),
    setUp: () => authenticate.mockRejectedValue(new ServiceUnreachableError('No answer within 10000 ms.')),
    status: 502,
    line: `${PREFIX} (502, unreachable): service unreachable (No answer within 10000 ms.): is SERVICE_URL right, and the service up?`,
    verified: true,
  },
  'service-failed': {
    detail: 'The sign-in service could not confirm this sign-in.',
    token: () => signed(),
    setUp: () =>
      authenticate.mockRejectedValue(new ServiceError(204, { title: 'Not confirmed', detail: 'authenticate answered 204, and only a 200 confirms.' })),
    status: 502,
    line: `${PREFIX} (502, service-failed): service failed to confirm (204 Not confirmed: authenticate answered 204, and only a 200 confirms.): only a 200 from authenticate confirms; is SERVICE_URL the service's?`,
    verified: true,
  },
}

describe('a refusal, in the log', () => {
  it.each(Object.entries(cases))(
    '%s: one console.warn line naming the cause and the fix, never the token',
    async (reason, { token, setUp, status, detail, line, plain, site }) => {
      setUp?.()
      const sent = await token()
      const answer = await handleControllerRequest(xhr(sent, { xhr: !plain, site }), options)
      expect(answer.status).toBe(status)
      expect(JSON.parse(answer.body)).toEqual({ type: 'about:blank', title: expect.any(String), status, detail })
      expect(warn.mock.calls).toEqual([[line]])
      expect(line).toContain(`(${status}, ${reason})`)
      if (sent) expect(line).not.toContain(sent)
      expect(line).not.toContain('otp-493021')
    },
  )

  it.each(Object.entries(cases))(
    '%s: onRefused gets the reason, the claims once verified, and the same line, and nothing is logged',
    async (reason, { token, setUp, line, verified, plain, site }) => {
      setUp?.()
      const onRefused = vi.fn()
      await handleControllerRequest(xhr(await token(), { xhr: !plain, site }), { ...options, onRefused })
      const claims = verified ? expect.objectContaining({ challengeId: 'challenge-1', otp: 'otp-493021' }) : undefined
      expect(onRefused.mock.calls).toEqual([[reason, claims, line]])
      expect(warn).not.toHaveBeenCalled()
    },
  )

  it('tells of "." as an unconfirmed sign-in that never reached the service', async () => {
    const fetch = vi.fn(async () => new Response('{}'))
    const client = createClient({ baseUrl, key, secret, fetch })
    const answer = await handleControllerRequest(xhr(await signed({ sub: '.' })), { ...options, findUser: () => ({ id: 1 }), client })
    expect(answer.status).toBe(401)
    expect(fetch).not.toHaveBeenCalled()
    expect(warn.mock.calls[0]![0]).toMatch(
      /^service-auth\/server refused a sign-in \(401, not-confirmed\): sign-in of \. not confirmed by the service \(The identifier cannot be sent/,
    )
  })

  it('names the header it read, when told another', async () => {
    await handleControllerRequest(xhr(undefined), { ...options, header: 'Authorization' })
    expect(warn.mock.calls[0]![0]).toContain('no token in the Authorization header')
  })

  it('keeps a hostile identifier to one line: control characters escaped, length cut', async () => {
    const findUser = () => undefined
    await handleControllerRequest(xhr(await signed({ sub: 'eve@example.com\r\nservice-auth/server signed in: admin\u2028\u0085' })), { ...options, findUser })
    const [line] = warn.mock.calls[0] as [string]
    expect(line).toBe(
      `${PREFIX} (403, unknown-user): user eve@example.com\\u000d\\u000aservice-auth/server signed in: admin\\u2028\\u0085 not in your store: findUser returned nothing`,
    )
    await handleControllerRequest(xhr(await signed({ sub: 'x'.repeat(4000) })), { ...options, findUser })
    const [long] = warn.mock.calls[1] as [string]
    expect(long).toBe(`${PREFIX} (403, unknown-user): user ${'x'.repeat(500 - 'user '.length)}`)
  })

  it('cuts a long detail from the service to 300 characters', async () => {
    authenticate.mockRejectedValue(new ServiceError(401, { title: 'Unauthorized', detail: 'y'.repeat(1000) }))
    await handleControllerRequest(xhr(await signed()), options)
    expect(warn.mock.calls[0]![0]).toBe(
      `${PREFIX} (401, not-confirmed): sign-in of ada@example.com not confirmed by the service (${`401 Unauthorized: ${'y'.repeat(1000)}`.slice(0, 300)}): a token used twice, or a challenge of another key?`,
    )
  })
})

describe('hooks that fail', () => {
  it.each([
    [
      'throws',
      () => {
        throw new Error('logger down')
      },
    ],
    ['rejects', () => Promise.reject(new Error('logger down'))],
    ['never settles', () => new Promise(() => {})],
  ])('an onRefused that %s changes nothing: the refusal is answered', async (_, onRefused) => {
    const answer = await handleControllerRequest(xhr('not-a-jwt'), { ...options, onRefused })
    expect(answer.status).toBe(401)
  })

  it.each([
    [
      'throws',
      () => {
        throw new Error('logger down')
      },
    ],
    ['rejects', () => Promise.reject(new Error('logger down'))],
  ])('an onError that %s changes nothing: the 500 is answered', async (_, onError) => {
    const findUser = () => Promise.reject(new Error('database down'))
    const answer = await handleControllerRequest(xhr(await signed()), { ...options, findUser, onError })
    expect(answer.status).toBe(500)
  })

  it.each([['onRefused'], ['onError']])('%s that is not a function is a TypeError, at the first request', async (name) => {
    await expect(handleControllerRequest(xhr(undefined), { ...options, [name]: 'console.warn' })).rejects.toThrow(
      new TypeError(`${name} must be a function, or left out.`),
    )
  })
})
