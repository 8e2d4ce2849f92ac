// @vitest-environment node
// The Python and PHP examples, written by hand from the spec, against a service of the test's
// own, for what the mock does not do: redirect a confirmation. And the session cookie they set,
// which integrators copy.
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, stopProcess } from '../../e2e/processes.js'

const secret = randomBytes(32).toString('base64')
// What reached the place the redirect points to.
const followed: { method: string; headers: IncomingHttpHeaders }[] = []
// Whether authenticate redirects; else it confirms (200).
let redirecting = false
// A service whose authenticate answers 302 to a page that answers 200 to anything, or 200 itself.
const service = createServer((req, res) => {
  if (req.url?.endsWith('/authenticate') && redirecting) return res.writeHead(302, { Location: '/elsewhere' }).end()
  if (req.url?.endsWith('/authenticate')) return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}')
  followed.push({ method: req.method!, headers: req.headers })
  res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}')
})
let serviceUrl: string

beforeAll(async () => {
  await once(service.listen(0, '127.0.0.1'), 'listening')
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`
})
afterAll(() => service.close())

const token = () => {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ jti: 'challenge-1', sub: 'ada@example.com', otp: '493021' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .sign(Buffer.from(secret, 'base64'))
}

describe.each([
  ['python', ['python3', 'examples/python/app.py'], 'stdout'],
  ['php', ['php', '-S', '127.0.0.1:0', 'examples/php/app.php'], 'stderr'],
] as const)('the %s example', (_name, command, output) => {
  /** The controller's answer to a good token, redirects not followed. */
  async function signIn() {
    const env = { SERVICE_URL: serviceUrl, SERVICE_KEY: 'pk_test', SERVICE_SECRET: secret, PORT: '0' }
    const { child, origin } = await startServer(command, { env, output })
    try {
      return await fetch(`${origin}/auth/controller`, {
        headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-Service-Auth': await token() },
        redirect: 'manual',
      })
    } finally {
      await stopProcess(child)
    }
  }

  it('starts no session when the service redirects the confirmation, and sends nothing where the redirect points', async () => {
    followed.length = 0
    redirecting = true
    const res = await signIn().finally(() => (redirecting = false))
    expect(res.status).toBe(502)
    expect(res.headers.get('location')).toBeNull()
    // (PHP's session_start gives every visitor a PHPSESSID; none is signed in, and none has a session= cookie.)
    expect(res.headers.get('set-cookie') ?? '').not.toMatch(/\bsession=[^;]/)
    expect(followed).toEqual([])
  })

  it('sets its session cookie HttpOnly, Secure and SameSite=Lax, as the Node examples do', async () => {
    const res = await signIn()
    expect(res.status).toBe(302)
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^\w+=[^;]+;/)
    expect(cookie).toMatch(/;\s*HttpOnly/i)
    expect(cookie).toMatch(/;\s*Secure/i)
    expect(cookie).toMatch(/;\s*SameSite=Lax/i)
  })
})
