// @vitest-environment node
import { randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'
import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest'
import { handleControllerRequest, handleFetchRequest, ServiceError, ServiceUnreachableError, type ControllerOptions, type SessionStarted } from '../../src/server/index.ts'

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
  options = { client: { authenticate }, secret, findUser: (identifier) => users.get(identifier), startSession }
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

  it('answers a plain request with a redirect', async () => {
    const response = await handleControllerRequest({ headers: { 'x-service-auth': await signed() } }, options)
    expect(response).toMatchObject({ status: 302, headers: { Location: '/welcome' } })
  })

  it('goes to / when the session names no location', async () => {
    startSession.mockReturnValue(undefined)
    expect(body(await handleControllerRequest(xhr(await signed()), options))).toEqual({ location: '/' })
  })

  it('adds the headers startSession returns, such as its cookie, to either answer', async () => {
    const cookie = 'session=s1; Path=/; HttpOnly; SameSite=Lax'
    startSession.mockReturnValue({ location: '/account', headers: { 'Set-Cookie': cookie } })
    const answer = await handleControllerRequest(xhr(await signed()), options)
    expect(answer).toMatchObject({ status: 200, headers: { 'Set-Cookie': cookie, 'Content-Type': 'application/json' } })
    expect(body(answer)).toEqual({ location: '/account' })
    const redirect = await handleControllerRequest({ headers: { 'x-service-auth': await signed() } }, options)
    expect(redirect).toMatchObject({ status: 302, headers: { 'Set-Cookie': cookie, Location: '/account' } })
  })

  it('marks every answer Cache-Control: no-store, the sign-in and the refusals', async () => {
    const answers = [
      await handleControllerRequest(xhr(await signed()), options),
      await handleControllerRequest({ headers: { 'x-service-auth': await signed() } }, options),
      await handleControllerRequest(xhr('garbage'), options),
      await handleControllerRequest(xhr(await signed({ sub: 'eve@example.com' })), options),
    ]
    expect(answers.map((answer) => [answer.status, answer.headers['Cache-Control']])).toEqual([[200, 'no-store'], [302, 'no-store'], [401, 'no-store'], [403, 'no-store']])
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

  it('refuses a token older than maxAge with 401, whatever its exp says: five minutes unless told', async () => {
    const seconds = Math.floor(Date.now() / 1000)
    const issuedAgo = (age: number) =>
      new SignJWT({ jti: 'challenge-1', sub: 'ada@example.com', otp: '493021' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(seconds - age).setExpirationTime(seconds + 3600).sign(Buffer.from(secret, 'base64'))
    const old = await handleControllerRequest(xhr(await issuedAgo(400)), options)
    expect(old.status).toBe(401)
    expect(body(old).detail).toMatch(/^The token was issued 40\d s ago, longer than maxAge \(300 s\) allows\.$/)
    expect((await handleControllerRequest(xhr(await issuedAgo(120)), { ...options, maxAge: 60 })).status).toBe(401)
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

  it('lets errors of the integrator’s own code through', async () => {
    startSession.mockImplementation(() => {
      throw new Error('session store down')
    })
    await expect(handleControllerRequest(xhr(await signed()), options)).rejects.toThrow('session store down')
  })
})

describe('handleFetchRequest', () => {
  const request = (headers: Record<string, string>) => new Request('https://shop.example/auth/controller', { headers })

  it('takes a Request and answers a Response: JSON {location} to the embed, with the session\'s cookie', async () => {
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

  it('redirects a plain request, and refuses a bad token with problem JSON', async () => {
    const redirect = await handleFetchRequest(request({ 'X-Service-Auth': await signed() }), options)
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get('location')).toBe('/welcome')
    expect(await redirect.text()).toBe('')
    const refused = await handleFetchRequest(request({ 'X-Service-Auth': 'garbage' }), options)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('content-type')).toBe('application/problem+json')
    expect(await refused.json()).toMatchObject({ status: 401, title: 'Unauthorized' })
  })
})

describe('what startSession may send back', () => {
  const cookie = 'session=s1; Path=/; HttpOnly'
  const plain = async () => ({ headers: { 'x-service-auth': await signed() } })
  const accounts = { redirectOrigins: ['https://accounts.example'] }

  /** Both answers the controller gives (JSON to the XHR, a redirect otherwise) for what startSession returned. */
  async function answersTo(started: SessionStarted, extra: Partial<ControllerOptions<User>> = {}) {
    startSession.mockReturnValue(started)
    return [await handleControllerRequest(xhr(await signed()), { ...options, ...extra }), await handleControllerRequest(await plain(), { ...options, ...extra })]
  }

  it.each([
    ['a protocol-relative URL', '//evil.example/'],
    ['a backslash for the second slash', '/\\evil.example'],
    ['two backslashes', '\\\\evil.example'],
    ['a tab the URL parser drops', '/\t/evil.example'],
    ['a newline the URL parser drops', '/\n/evil.example'],
    ['a dot segment that serialises to //', '/.//evil.example'],
    ['a leading space', ' /welcome'],
    ['a leading space before //', ' //evil.example'],
    ['CR LF and a header after it', '/welcome\r\nSet-Cookie: evil=1'],
    ['a NUL', '/welcome\u0000'],
    ['another origin', 'https://evil.example/'],
    ['another origin in capitals', 'HTTPS://EVIL.EXAMPLE/'],
    ['a scheme without slashes', 'http:evil.example'],
    ['an allowed name as userinfo', 'https://accounts.example@evil.example/'],
    ['userinfo on an allowed origin', 'https://user:pass@accounts.example/'],
    ['an allowed host on another scheme', 'ftp://accounts.example/'],
    ['an allowed host on another port', 'https://accounts.example:8443/'],
    ['javascript:', 'javascript:alert(document.domain)'],
    ['JavaScript: in mixed case', 'JaVaScRiPt:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['a relative path', 'welcome'],
  ])('answers 500 for %s, and sends neither the location nor the cookie', async (_, location) => {
    for (const answer of await answersTo({ location, headers: { 'Set-Cookie': cookie } }, accounts)) {
      expect(answer.status).toBe(500)
      expect(answer.headers).toEqual({ 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' })
      expect(body(answer)).toMatchObject({ status: 500, title: 'Internal Server Error', detail: expect.stringMatching(/^startSession returned a location/) })
      expect(answer.body).not.toContain('evil')
    }
  })

  it('refuses a bad location returned as a plain string too', async () => {
    for (const answer of await answersTo('//evil.example/')) expect(answer.status).toBe(500)
  })

  it.each([
    ['a path with its query and fragment', '/welcome?from=qr#top', '/welcome?from=qr#top'],
    ['an encoded slash, which stays a path here', '/%2F/evil.example', '/%2F/evil.example'],
    ['a space and non-ASCII, percent-encoded', '/wel come/ü', '/wel%20come/%C3%BC'],
    ['a backslash later in the path, as the browser reads it', '/a\\b', '/a/b'],
    ['a URL on an allowed origin', 'https://accounts.example/next?x=1', 'https://accounts.example/next?x=1'],
    ['an allowed origin in capitals, normalised', 'HTTPS://ACCOUNTS.EXAMPLE/next', 'https://accounts.example/next'],
    ['a backslash before @, which keeps the allowed host', 'https://accounts.example\\@evil.example', 'https://accounts.example/@evil.example'],
  ])('sends %s', async (_, location, sent) => {
    const [json, redirect] = await answersTo({ location, headers: { 'Set-Cookie': cookie } }, accounts)
    expect(json).toMatchObject({ status: 200, headers: { 'Set-Cookie': cookie } })
    expect(body(json!)).toEqual({ location: sent })
    expect(redirect).toMatchObject({ status: 302, headers: { Location: sent, 'Set-Cookie': cookie } })
  })

  it('takes an absolute URL on your own site only when its origin is in redirectOrigins', async () => {
    expect((await answersTo('https://shop.example/welcome')).map((answer) => answer.status)).toEqual([500, 500])
    expect((await answersTo('https://shop.example/welcome', { redirectOrigins: ['https://shop.example/'] })).map((answer) => answer.status)).toEqual([200, 302])
  })

  it.each([
    ['CR LF in a cookie', { 'Set-Cookie': 'session=s1\r\nLocation: https://evil.example/' }],
    ['LF alone', { 'Set-Cookie': 'session=s1\nX-Evil: 1' }],
    ['CR LF in one cookie of a list', { 'Set-Cookie': ['session=s1', 'csrf=t1\r\nX-Evil: 1'] }],
    ['a tab', { 'X-Note': 'a\tb' }],
    ['a NUL', { 'X-Note': 'a\u0000b' }],
    ['a character no header can carry', { 'X-Note': 'snow ☃' }],
    ['a header name with a space', { 'X Evil': '1' }],
    ['a header name with CR LF', { 'X-A\r\nX-Evil': '1' }],
    ['a value that is not text', { 'X-Count': 3 as unknown as string }],
    ['a Location header of its own', { location: 'https://evil.example/' }],
    ['a Content-Type of its own', { 'Content-Type': 'text/html' }],
  ])('answers 500 for headers with %s, and sends none of them', async (_, headers) => {
    for (const answer of await answersTo({ location: '/welcome', headers })) {
      expect(answer.status).toBe(500)
      expect(answer.headers).toEqual({ 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' })
      expect(body(answer).detail).toMatch(/^startSession returned a/)
      expect(answer.body).not.toContain('evil')
    }
  })

  it('answers a Fetch runtime with the same 500 Response, rather than throwing from Headers', async () => {
    startSession.mockReturnValue({ location: '/welcome', headers: { 'Set-Cookie': 'session=s1\r\nX-Evil: 1' } })
    const response = await handleFetchRequest(new Request('https://shop.example/auth/controller', { headers: { 'X-Service-Auth': await signed() } }), options)
    expect(response.status).toBe(500)
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(response.headers.get('location')).toBeNull()
  })

  it.each([
    ['a path', ['https://accounts.example/login']],
    ['no scheme', ['accounts.example']],
    ['another scheme', ['javascript:alert(1)']],
    ['userinfo', ['https://user@accounts.example']],
    ['not a list', 'https://accounts.example' as unknown as string[]],
  ])('throws a TypeError on redirectOrigins with %s, before reading any token', async (_, redirectOrigins) => {
    await expect(handleControllerRequest(xhr(undefined), { ...options, redirectOrigins })).rejects.toThrow(TypeError)
    await expect(handleControllerRequest(xhr(undefined), { ...options, redirectOrigins })).rejects.toThrow(/redirectOrigins/)
    expect(startSession).not.toHaveBeenCalled()
  })
})
