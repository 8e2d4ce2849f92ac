// @vitest-environment node
// What the controller sends back from startSession: only a location that keeps the browser on
// this site or an allowed origin, and only headers that cannot start another header.
import { randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'
import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest'
import { handleControllerRequest, handleFetchRequest, type ControllerOptions, type SessionStarted } from '../../src/server/index.js'

const secret = randomBytes(32).toString('base64')
type User = { id: number }

const signed = () =>
  new SignJWT({ jti: 'challenge-1', sub: 'ada@example.com', otp: '493021' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1m')
    .sign(Buffer.from(secret, 'base64'))

let options: ControllerOptions<User>
let startSession: Mock<(user: User) => SessionStarted>

beforeEach(() => {
  startSession = vi.fn((): SessionStarted => '/welcome')
  options = { client: { key: 'pk_test', baseUrl: 'https://api.example', authenticate: async () => ({}) }, secret, findUser: () => ({ id: 7 }), startSession }
  // An unsafe answer is the integrator's bug, told to console.error by default: kept out of the output.
  vi.spyOn(console, 'error').mockImplementation(() => {})
})

const xhr = (token: string | undefined) => ({ headers: { 'x-requested-with': 'XMLHttpRequest', ...(token && { 'x-service-auth': token }) } })
const body = (response: { body: string }) => JSON.parse(response.body)

describe('what startSession may send back', () => {
  const cookie = 'session=s1; Path=/; HttpOnly'
  const accounts = { redirectOrigins: ['https://accounts.example'] }

  /** The controller's answer to the embed for what startSession returned. */
  async function answerTo(started: SessionStarted, extra: Partial<ControllerOptions<User>> = {}) {
    startSession.mockReturnValue(started)
    return handleControllerRequest(xhr(await signed()), { ...options, ...extra })
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
    const answer = await answerTo({ location, headers: { 'Set-Cookie': cookie } }, accounts)
    expect(answer.status).toBe(500)
    expect(answer.headers).toEqual({ 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' })
    expect(body(answer)).toMatchObject({ status: 500, title: 'Internal Server Error', detail: expect.stringMatching(/^startSession returned a location/) })
    expect(answer.body).not.toContain('evil')
  })

  it('refuses a bad location returned as a plain string too', async () => {
    expect((await answerTo('//evil.example/')).status).toBe(500)
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
    const json = await answerTo({ location, headers: { 'Set-Cookie': cookie } }, accounts)
    expect(json).toMatchObject({ status: 200, headers: { 'Set-Cookie': cookie } })
    expect(body(json)).toEqual({ location: sent })
  })

  it('takes an absolute URL on your own site only when its origin is in redirectOrigins', async () => {
    expect((await answerTo('https://shop.example/welcome')).status).toBe(500)
    expect((await answerTo('https://shop.example/welcome', { redirectOrigins: ['https://shop.example/'] })).status).toBe(200)
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
    ['a Cache-Control of its own', { 'cache-control': 'public, max-age=31536000' }],
    ['an empty list of cookies', { 'Set-Cookie': [] }],
  ])('answers 500 for headers with %s, and sends none of them', async (_, headers) => {
    const answer = await answerTo({ location: '/welcome', headers })
    expect(answer.status).toBe(500)
    expect(answer.headers).toEqual({ 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' })
    expect(body(answer).detail).toMatch(/^startSession returned a/)
    expect(answer.body).not.toContain('evil')
  })

  it.each([
    ['null', null],
    ['text', 'Set-Cookie: session=s1'],
    ['a list of pairs', [['Set-Cookie', 'session=s1']]],
    ['a number', 7],
  ])('answers 500 for headers that are %s, saying what headers must be', async (_, headers) => {
    const answer = await answerTo({ location: '/welcome', headers } as never)
    expect(answer.status).toBe(500)
    expect(body(answer).detail).toBe('startSession returned headers that are not an object of header names to values.')
  })

  it.each([
    ['a number', 7],
    ['an object', { pathname: '/welcome' }],
  ])('answers 500 for a location that is %s, saying what a location must be', async (_, location) => {
    const answer = await answerTo({ location } as never)
    expect(answer.status).toBe(500)
    expect(body(answer).detail).toBe('startSession returned a location that is not a string free of control characters.')
  })

  it('sends a URL on an allowed http origin, as on an https one', async () => {
    const json = await answerTo('http://accounts.example/next', { redirectOrigins: ['http://accounts.example'] })
    expect(body(json)).toEqual({ location: 'http://accounts.example/next' })
  })

  it('answers a Fetch runtime with the same 500 Response, rather than throwing from Headers', async () => {
    startSession.mockReturnValue({ location: '/welcome', headers: { 'Set-Cookie': 'session=s1\r\nX-Evil: 1' } })
    const response = await handleFetchRequest(
      new Request('https://shop.example/auth/controller', { headers: { 'X-Service-Auth': await signed(), 'X-Requested-With': 'XMLHttpRequest' } }),
      options,
    )
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
    ['a String object, not a string', [new String('https://accounts.example') as unknown as string]],
    ['a tab the URL parser would drop', ['https://accounts.\texample']],
    ['a newline at its end', ['https://accounts.example\n']],
    ['a query', ['https://accounts.example/?next=1']],
    ['a fragment', ['https://accounts.example/#top']],
    ['a password', ['https://:pw@accounts.example']],
  ])('throws a TypeError on redirectOrigins with %s, before reading any token', async (_, redirectOrigins) => {
    await expect(handleControllerRequest(xhr(undefined), { ...options, redirectOrigins })).rejects.toThrow(TypeError)
    await expect(handleControllerRequest(xhr(undefined), { ...options, redirectOrigins })).rejects.toThrow(/redirectOrigins/)
    expect(startSession).not.toHaveBeenCalled()
  })
})
