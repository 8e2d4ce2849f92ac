// @vitest-environment node
import { createHmac, randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'
import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest'
import {
  createClient,
  createController,
  handleControllerRequest,
  handleFetchRequest,
  ServiceError,
  ServiceUnreachableError,
  type ControllerOptions,
  type SessionStarted,
} from '../../src/server/index.js'

const secret = randomBytes(32).toString('base64')
const users = new Map([['ada@example.com', { id: 7, name: 'Ada' }]])

const signed = (claims: Record<string, unknown> = {}, key = secret) =>
  new SignJWT({ jti: 'challenge-1', sub: 'ada@example.com', otp: '493021', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1m')
    .sign(Buffer.from(key, 'base64'))

let options: ControllerOptions<User>
type User = { id: number; name: string }
let authenticate: Mock<(identifier: string, confirmation: { challenge: string; otp: string }) => Promise<unknown>>
let startSession: Mock<(user: User) => SessionStarted>

beforeEach(() => {
  authenticate = vi.fn(async () => ({}))
  startSession = vi.fn((): SessionStarted => '/welcome')
  options = { client: { key: 'pk_test', baseUrl: 'https://api.example', authenticate }, secret, findUser: (identifier) => users.get(identifier), startSession }
  // Each refusal logs a line by default (refusal.test.ts reads them): kept out of the output here.
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

const xhr = (token: string | undefined, extra: Record<string, string> = {}) => ({
  headers: { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest', ...(token && { 'x-service-auth': token }), ...extra },
})
const body = (response: { body: string }) => JSON.parse(response.body)

describe('handleControllerRequest', () => {
  it('verifies, asks the user store, confirms at the service, starts the session and answers the XHR with JSON {location}', async () => {
    const response = await handleControllerRequest(xhr(await signed()), options)
    expect(response).toMatchObject({ status: 200, headers: { 'Content-Type': 'application/json' } })
    expect(body(response)).toEqual({ location: '/welcome' })
    expect(authenticate).toHaveBeenCalledWith('ada@example.com', { challenge: 'challenge-1', otp: '493021' })
    expect(startSession).toHaveBeenCalledWith({ id: 7, name: 'Ada' }, { challengeId: 'challenge-1', identifier: 'ada@example.com', otp: '493021' })
  })

  it.each([
    ['a good token and no X-Requested-With, as a link or a form sends it', async () => ({ headers: { 'x-service-auth': await signed() } })],
    ['X-Requested-With of another value', async () => xhr(await signed(), { 'x-requested-with': 'fetch' })],
    ['an empty X-Requested-With', async () => xhr(await signed(), { 'x-requested-with': '' })],
    ['a bad token and no X-Requested-With', async () => ({ headers: { 'x-service-auth': 'garbage' } })],
    ['no headers at all', async () => ({ headers: {} })],
  ])('refuses %s with 400 (not-xhr), before the token is read: no one asked, nothing confirmed', async (_, request) => {
    const findUser = vi.fn(() => users.get('ada@example.com'))
    const onRefused = vi.fn()
    const response = await handleControllerRequest(await request(), { ...options, findUser, onRefused })
    expect(response).toEqual({
      status: 400,
      headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' },
      body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Only the sign-in embed may sign in here.' }),
    })
    expect(onRefused.mock.calls).toEqual([
      [
        'not-xhr',
        undefined,
        'service-auth/server refused a sign-in (400, not-xhr): request without X-Requested-With: XMLHttpRequest, which the embed always sends and another site cannot add without your CORS consent: is it a link, a form or a script of your own?',
      ],
    ])
    expect(findUser).not.toHaveBeenCalled()
    expect(authenticate).not.toHaveBeenCalled()
    expect(startSession).not.toHaveBeenCalled()
  })

  it.each(['cross-site', 'same-site', 'none'])(
    'refuses what the browser says came from another page (Sec-Fetch-Site: %s) with 403 (cross-site), before the token is read',
    async (site) => {
      const findUser = vi.fn(() => users.get('ada@example.com'))
      const onRefused = vi.fn()
      const response = await handleControllerRequest(xhr(await signed(), { 'sec-fetch-site': site }), { ...options, findUser, onRefused })
      expect([response.status, body(response).detail]).toEqual([403, 'Only the sign-in embed on this site may sign in here.'])
      expect(onRefused.mock.calls).toEqual([['cross-site', undefined, expect.stringContaining(`(Sec-Fetch-Site: ${site})`)]])
      expect([findUser, authenticate, startSession].map((step) => step.mock.calls.length)).toEqual([0, 0, 0])
    },
  )

  it('signs in from its own origin (Sec-Fetch-Site: same-origin, in any header form) and from a client that sends none', async () => {
    for (const request of [
      xhr(await signed(), { 'sec-fetch-site': 'same-origin' }),
      { headers: new Headers(xhr(await signed(), { 'sec-fetch-site': 'same-origin' }).headers) },
      xhr(await signed()),
    ])
      expect(body(await handleControllerRequest(request, options))).toEqual({ location: '/welcome' })
    expect(startSession).toHaveBeenCalledTimes(3)
  })

  it('goes to / when the session names no location', async () => {
    startSession.mockReturnValue(undefined)
    expect(body(await handleControllerRequest(xhr(await signed()), options))).toEqual({ location: '/' })
  })

  it('adds the headers startSession returns, such as its cookie, to the answer', async () => {
    const cookie = 'session=s1; Path=/; HttpOnly; SameSite=Lax'
    startSession.mockReturnValue({ location: '/account', headers: { 'Set-Cookie': cookie } })
    const answer = await handleControllerRequest(xhr(await signed()), options)
    expect(answer).toMatchObject({ status: 200, headers: { 'Set-Cookie': cookie, 'Content-Type': 'application/json' } })
    expect(body(answer)).toEqual({ location: '/account' })
  })

  it('marks every answer Cache-Control: no-store, the sign-in and the refusals', async () => {
    const answers = [
      await handleControllerRequest(xhr(await signed()), options),
      await handleControllerRequest({ headers: { 'x-service-auth': await signed() } }, options),
      await handleControllerRequest(xhr('garbage'), options),
      await handleControllerRequest(xhr(await signed({ sub: 'eve@example.com' })), options),
    ]
    expect(answers.map((answer) => [answer.status, answer.headers['Cache-Control']])).toEqual([
      [200, 'no-store'],
      [400, 'no-store'],
      [401, 'no-store'],
      [403, 'no-store'],
    ])
  })

  it('reads fetch Headers and an Authorization: Bearer header too', async () => {
    const headers = new Headers({ Authorization: 'Bearer ' + (await signed()), 'X-Requested-With': 'XMLHttpRequest' })
    const response = await handleControllerRequest({ headers }, { ...options, header: 'Authorization' })
    expect(body(response)).toEqual({ location: '/welcome' })
  })

  it.each([
    ['no token', undefined],
    ['garbage', 'garbage'],
  ])('refuses %s with 401 and confirms nothing', async (_, token) => {
    const response = await handleControllerRequest(xhr(token), options)
    expect(response.status).toBe(401)
    expect(response.headers['Content-Type']).toBe('application/problem+json')
    expect(authenticate).not.toHaveBeenCalled()
    expect(startSession).not.toHaveBeenCalled()
  })

  it('refuses a token signed with another secret', async () => {
    const response = await handleControllerRequest(xhr(await signed({}, randomBytes(32).toString('base64'))), options)
    expect(response.status).toBe(401)
    expect(authenticate).not.toHaveBeenCalled()
  })

  it('refuses a token older than maxAge with 401, whatever its exp says', async () => {
    const seconds = Math.floor(Date.now() / 1000)
    const issuedAgo = (age: number) =>
      new SignJWT({ jti: 'challenge-1', sub: 'ada@example.com', otp: '493021' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(seconds - age)
        .setExpirationTime(seconds - age + 300)
        .sign(Buffer.from(secret, 'base64'))
    const old = await handleControllerRequest(xhr(await issuedAgo(120)), { ...options, maxAge: 60, onRefused: () => {} })
    expect(old.status).toBe(401)
    expect(body(old).detail).toMatch(/^The token was issued 12\d s ago, longer than maxAge \(60 s\) allows\.$/)
    expect(authenticate).not.toHaveBeenCalled()
    expect((await handleControllerRequest(xhr(await issuedAgo(120)), options)).status).toBe(200)
  })

  it('refuses an unknown user with 403, leaving the challenge unconfirmed', async () => {
    const response = await handleControllerRequest(xhr(await signed({ sub: 'eve@example.com' })), options)
    expect(response.status).toBe(403)
    expect(body(response)).toMatchObject({ status: 403, title: 'Forbidden' })
    expect(authenticate).not.toHaveBeenCalled()
  })

  it.each([
    [401, 401],
    [404, 401],
    [423, 423],
    [500, 502],
  ])('turns a %i from authenticate into %i, and starts no session', async (fromService, answered) => {
    authenticate.mockRejectedValue(new ServiceError(fromService, { title: 'No' }))
    const response = await handleControllerRequest(xhr(await signed()), options)
    expect(response.status).toBe(answered)
    expect(startSession).not.toHaveBeenCalled()
  })

  it('answers 502 when the service cannot be reached', async () => {
    authenticate.mockRejectedValue(new ServiceUnreachableError('down'))
    expect((await handleControllerRequest(xhr(await signed()), options)).status).toBe(502)
  })

  it('answers 500 to an error of the integrator’s own code, and hands the error to onError', async () => {
    const failure = new Error('session store down')
    startSession.mockImplementation(() => {
      throw failure
    })
    const onError = vi.fn()
    const response = await handleControllerRequest(xhr(await signed()), { ...options, onError })
    expect(response.status).toBe(500)
    expect(body(response)).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'The sign-in could not be completed.' })
    expect(response.headers['Set-Cookie']).toBeUndefined()
    expect(onError).toHaveBeenCalledWith(failure)
  })

  it('reports to console.error by default, and answers even when onError throws', async () => {
    const findUser = vi.fn(async () => Promise.reject(new Error('database down')))
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      expect((await handleControllerRequest(xhr(await signed()), { ...options, findUser })).status).toBe(500)
      expect(logged).toHaveBeenCalledWith(new Error('database down'))
    } finally {
      logged.mockRestore()
    }
    const onError = () => {
      throw new Error('the hook is broken too')
    }
    expect((await handleControllerRequest(xhr(await signed()), { ...options, findUser, onError })).status).toBe(500)
  })

  it('refuses a token whose sub holds a lone surrogate with 401, and asks neither the user store nor the service', async () => {
    const findUser = vi.fn(() => users.get('ada@example.com'))
    const response = await handleControllerRequest(xhr(await signed({ sub: 'ada@example.com\uD800' })), { ...options, findUser })
    expect(response.status).toBe(401)
    expect(body(response).detail).toBe("The token's jti, sub, otp, role or sid is not well-formed Unicode.")
    expect(findUser).not.toHaveBeenCalled()
    expect(authenticate).not.toHaveBeenCalled()
  })

  it('with the real client and a user store that finds anyone, a lone surrogate in sub is a 401, not a URIError out of the handler', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 200 }))
    const client = createClient({ baseUrl: 'https://api.example', key: 'k', secret, fetch })
    const response = await handleControllerRequest(xhr(await signed({ sub: '\uD800' })), { ...options, client, findUser: () => ({ id: 1, name: 'anyone' }) })
    expect(response.status).toBe(401)
    expect(fetch).not.toHaveBeenCalled()
    expect(startSession).not.toHaveBeenCalled()
  })

  it('answers whatever the client throws, even synchronously: no input makes the handler reject', async () => {
    const client = {
      ...options.client,
      authenticate(identifier: string): Promise<unknown> {
        return Promise.resolve(encodeURIComponent(identifier + '\uD800'))
      },
    }
    const onError = vi.fn()
    const response = await handleControllerRequest(xhr(await signed()), { ...options, client, onError })
    expect(response.status).toBe(500)
    expect(onError.mock.calls[0]![0]).toBeInstanceOf(URIError)
  })

  it("still throws a TypeError for a bad secret, before reading the request: the integrator's bug, loud at the first request", async () => {
    await expect(handleControllerRequest(xhr(await signed()), { ...options, secret: 'changeme' })).rejects.toThrow(TypeError)
    await expect(handleControllerRequest(xhr(await signed()), { ...options, maxAge: -1 })).rejects.toThrow(TypeError)
  })

  it.each([
    ['no client', undefined],
    ['a client without key', { baseUrl: 'https://api.example', authenticate: async () => ({}) }],
    ['a client without baseUrl', { key: 'pk_test', authenticate: async () => ({}) }],
    ['a client without authenticate', { key: 'pk_test', baseUrl: 'https://api.example' }],
    ['a client whose key is not a string', { key: 7, baseUrl: 'https://api.example', authenticate: async () => ({}) }],
  ])('throws a TypeError for %s, before reading the request: aud and iss are checked against it', async (_, client) => {
    await expect(handleControllerRequest(xhr(undefined), { ...options, client: client as never })).rejects.toThrow(
      new TypeError("client must be createClient(...)'s, or have its key, baseUrl and authenticate: a token's aud and iss are checked against them."),
    )
  })

  it('throws a TypeError for a client whose key is empty: verifyAuthToken would not pin it', async () => {
    await expect(handleControllerRequest(xhr(undefined), { ...options, client: { ...options.client, key: '' } })).rejects.toThrow(
      new TypeError('audience must be a string that is not empty, or left out.'),
    )
  })

  it("checks the token's aud against the client's key and its iss against the client's base URL, before asking anyone", async () => {
    const findUser = vi.fn(() => users.get('ada@example.com'))
    const refused = [
      await handleControllerRequest(xhr(await signed({ aud: 'pk_other' })), { ...options, findUser }),
      await handleControllerRequest(xhr(await signed({ iss: 'https://other.example' })), { ...options, findUser }),
    ]
    expect(refused.map((answer) => [answer.status, body(answer).detail])).toEqual([
      [401, 'The token is for the API key "pk_other", not "pk_test".'],
      [401, 'The token was issued by "https://other.example", not by the service at "https://api.example".'],
    ])
    expect(findUser).not.toHaveBeenCalled()
    expect(authenticate).not.toHaveBeenCalled()
    const named = await handleControllerRequest(xhr(await signed({ aud: 'pk_test', iss: 'https://api.example/' })), options)
    expect(named.status).toBe(200)
  })

  it('tells onError of a location or header it will not send, besides answering 500', async () => {
    startSession.mockReturnValue('//evil.example')
    const onError = vi.fn()
    const answer = await handleControllerRequest(xhr(await signed()), { ...options, onError })
    expect(answer.status).toBe(500)
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ name: 'UnsafeAnswerError' }))
  })
})

describe('handleControllerRequest, given hostile requests', () => {
  /** The embed's X-Requested-With and these headers, whatever they hold: past the not-xhr check, to the token. */
  const embed = (headers: Record<string, unknown>) => ({ headers: { 'x-requested-with': 'XMLHttpRequest', ...headers } })

  // Whatever the request holds, an answer: never a rejection, never a confirmation without a good token.
  it.each([
    ['the token twice, as a list', async () => embed({ 'x-service-auth': ['garbage', await signed()] }), 'malformed'],
    ['the token twice, joined as Node joins them', async () => embed({ 'x-service-auth': `${await signed()}, ${await signed()}` }), 'malformed'],
    ['an empty header', async () => embed({ 'x-service-auth': '' }), 'no-token'],
    ['an empty list', async () => embed({ 'x-service-auth': [] }), 'no-token'],
    ['a header that is a number', async () => embed({ 'x-service-auth': 7 }), 'no-token'],
    ['a header that is an object', async () => embed({ 'x-service-auth': { toString: () => 'x' } }), 'no-token'],
    ['a list whose first value is a number', async () => embed({ 'x-service-auth': [7, await signed()] }), 'no-token'],
    ['spaces around the token', async () => embed({ 'x-service-auth': ` ${await signed()} ` }), 'signature'],
    ['a token of 10,000 characters', async () => embed({ 'x-service-auth': 'a'.repeat(10_000) }), 'malformed'],
    ['three dots', async () => embed({ 'x-service-auth': '...' }), 'malformed'],
    ['empty JSON parts', async () => embed({ 'x-service-auth': 'e30.e30.' }), 'malformed'],
    ['alg none', async () => embed({ 'x-service-auth': `${b64({ alg: 'none' })}.${b64({ jti: 'c', sub: 'ada@example.com', otp: 'o' })}.` }), 'malformed'],
    [
      'a well-signed __proto__ payload',
      async () => embed({ 'x-service-auth': signedRaw('{"__proto__":{"sub":"ada@example.com"},"jti":"c","otp":"o"}') }),
      'claims',
    ],
    ['the token as Bearer in X-Service-Auth', async () => embed({ 'x-service-auth': `Bearer ${await signed()}` }), 'malformed'],
    ['no token header at all', async () => embed({}), 'no-token'],
  ])('%s, from the embed: refused (%s), nothing confirmed', async (_, request, reason) => {
    const onRefused = vi.fn()
    const answer = await handleControllerRequest((await request()) as never, { ...options, onRefused })
    expect(answer.status).toBe(401)
    expect(onRefused.mock.calls.map(([why]) => why)).toEqual([reason])
    expect(authenticate).not.toHaveBeenCalled()
    expect(startSession).not.toHaveBeenCalled()
  })

  it.each([
    ['Bearer and nothing', 'Bearer ', 'no-token'],
    ['Bearer and spaces', 'Bearer    ', 'no-token'],
    ['another scheme', 'Basic YWRhOnB3', 'malformed'],
    ['a list whose first value is a number, not text to take Bearer off', [7], 'no-token'],
  ])('an Authorization header with %s is refused (%s)', async (_, value, reason) => {
    const onRefused = vi.fn()
    const onError = vi.fn()
    const answer = await handleControllerRequest(embed({ authorization: value }), { ...options, header: 'Authorization', onRefused, onError })
    expect(onError).not.toHaveBeenCalled()
    expect(answer.status).toBe(401)
    expect(onRefused.mock.calls.map(([why]) => why)).toEqual([reason])
    expect(authenticate).not.toHaveBeenCalled()
  })

  it('reads Authorization: Bearer with any case and any run of spaces, in that header only', async () => {
    for (const value of [`Bearer ${await signed()}`, `bearer  ${await signed()}`, `BEARER\t${await signed()}`]) {
      expect((await handleControllerRequest(embed({ authorization: value }), { ...options, header: 'authorization' })).status).toBe(200)
    }
    // Only a prefix is taken off, not a Bearer further on.
    const trailing = embed({ authorization: `${await signed()}Bearer ` })
    expect((await handleControllerRequest(trailing, { ...options, header: 'Authorization' })).status).toBe(401)
    // Headers named like it are not it: their Bearer prefix stays, and the token is malformed.
    for (const header of ['X-Authorization', 'Authorization-Token']) {
      const request = embed({ [header.toLowerCase()]: `Bearer ${await signed()}` })
      expect((await handleControllerRequest(request, { ...options, header })).status, header).toBe(401)
    }
  })
})

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A token signed over this exact payload text, with iat and exp added as numbers now. */
function signedRaw(payload: string) {
  const now = Math.floor(Date.now() / 1000)
  const withTimes = payload.replace(/^\{/, `{"iat":${now},"exp":${now + 60},`)
  const input = `${b64({ alg: 'HS256' })}.${Buffer.from(withTimes).toString('base64url')}`
  return `${input}.${createHmac('sha256', Buffer.from(secret, 'base64')).update(input).digest('base64url')}`
}

describe('handleFetchRequest', () => {
  const request = (headers: Record<string, string>) => new Request('https://shop.example/auth/controller', { headers })

  it("takes a Request and answers a Response: JSON {location} to the embed, with the session's cookie", async () => {
    startSession.mockReturnValue({ location: '/welcome', headers: { 'Set-Cookie': 'session=s1; Path=/; HttpOnly' } })
    const response = await handleFetchRequest(request({ 'X-Service-Auth': await signed(), 'X-Requested-With': 'XMLHttpRequest' }), options)
    expect(response).toBeInstanceOf(Response)
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toBe('session=s1; Path=/; HttpOnly')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ location: '/welcome' })
  })

  it('sends every cookie of a list, each its own Set-Cookie', async () => {
    startSession.mockReturnValue({ location: '/welcome', headers: { 'Set-Cookie': ['session=s1; Path=/; HttpOnly', 'csrf=t1; Path=/'] } })
    const response = await handleFetchRequest(request({ 'X-Service-Auth': await signed(), 'X-Requested-With': 'XMLHttpRequest' }), options)
    expect(response.headers.getSetCookie()).toEqual(['session=s1; Path=/; HttpOnly', 'csrf=t1; Path=/'])
    const answer = await handleControllerRequest(xhr(await signed()), options)
    expect(answer.headers['Set-Cookie']).toEqual(['session=s1; Path=/; HttpOnly', 'csrf=t1; Path=/'])
  })

  it('refuses a plain request and a bad token with problem JSON', async () => {
    const plain = await handleFetchRequest(request({ 'X-Service-Auth': await signed() }), options)
    expect(plain.status).toBe(400)
    expect(plain.headers.get('content-type')).toBe('application/problem+json')
    expect(plain.headers.get('location')).toBeNull()
    expect(await plain.json()).toMatchObject({ status: 400, title: 'Bad Request', detail: 'Only the sign-in embed may sign in here.' })
    expect(authenticate).not.toHaveBeenCalled()
    const refused = await handleFetchRequest(request({ 'X-Service-Auth': 'garbage', 'X-Requested-With': 'XMLHttpRequest' }), options)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('content-type')).toBe('application/problem+json')
    expect(await refused.json()).toMatchObject({ status: 401, title: 'Unauthorized' })
  })
})

describe('createController', () => {
  it.each([
    ['onRefused', 42, 'onRefused must be a function, or left out.'],
    ['onError', 'console.error', 'onError must be a function, or left out.'],
    ['findUser', undefined, 'findUser must be a function: it asks your user store who may sign in.'],
    ['startSession', {}, 'startSession must be a function: it starts your session.'],
    ['secret', 'changeme', /^secret \(the API secret\)/],
    ['client', { key: 'pk_test' }, /^client must be createClient\(\.\.\.\)'s/],
    ['header', 42, "header must be an HTTP header name, such as 'X-Service-Auth'; got 42."],
    ['header', '', `header must be an HTTP header name, such as 'X-Service-Auth'; got "".`],
    ['header', 'X Bad', /^header must be an HTTP header name.*got "X Bad"\.$/],
  ])('throws a TypeError naming a bad %s when it is made, at start-up, before any request', (name, value, message) => {
    expect(() => createController({ ...options, [name]: value })).toThrow(message)
    expect(() => createController({ ...options, [name]: value })).toThrow(TypeError)
  })

  it('throws a TypeError that asks for the options when it is given none', () => {
    // @ts-expect-error: called as plain JavaScript may call it
    expect(() => createController()).toThrow(new TypeError('The controller needs its options: { client, secret, findUser, startSession }.'))
  })

  it.each([
    ['a string', 'options'],
    ['a number', 42],
    ['true', true],
  ])('throws the same TypeError when its options are %s, not an object', (_, options) => {
    // @ts-expect-error: called as plain JavaScript may call it
    expect(() => createController(options)).toThrow(new TypeError('The controller needs its options: { client, secret, findUser, startSession }.'))
  })

  it('takes a header name of any HTTP token characters, such as Authorization or X-Auth_Token', () => {
    expect(() => createController({ ...options, header: 'Authorization' })).not.toThrow()
    expect(() => createController({ ...options, header: 'X-Auth_Token' })).not.toThrow()
  })

  it('answers as handleControllerRequest and handleFetchRequest do, with the options it was made with; handle and handleFetch need no this', async () => {
    const onRefused = vi.fn()
    const { handle, handleFetch } = createController({ ...options, onRefused })
    const signedIn = await handle(xhr(await signed()))
    expect([signedIn.status, body(signedIn)]).toEqual([200, { location: '/welcome' }])
    const refused = await handleFetch(
      new Request('https://shop.example/auth/controller', { headers: { 'X-Service-Auth': 'garbage', 'X-Requested-With': 'XMLHttpRequest' } }),
    )
    expect(refused).toBeInstanceOf(Response)
    expect(await refused.json()).toMatchObject({ status: 401, title: 'Unauthorized' })
    expect(onRefused.mock.calls.map(([reason]) => reason)).toEqual(['malformed'])
  })

  it.each([['findUser'], ['startSession']])('%s left out is a TypeError for handleControllerRequest too, before the request is read', async (name) => {
    await expect(handleControllerRequest(xhr(await signed()), { ...options, [name]: undefined })).rejects.toThrow(new RegExp(`^${name} must be a function`))
  })

  it('keeps the hooks it was given: options changed later change nothing', async () => {
    const given = { ...options }
    const controller = createController(given)
    given.findUser = () => undefined
    expect((await controller.handle(xhr(await signed()))).status).toBe(200)
  })
})
