// @vitest-environment node
// The Python and PHP examples confirm a sign-in by hand (spec section 4, step 5). Their HTTP
// clients follow redirects by default: urllib turns the POST into a GET to wherever a 302 points,
// with the signed Authorization header, and takes that place's 200 for the service's. A
// confirmation that is redirected is no confirmation: no session, and nothing sent on.
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
// A service whose authenticate answers 302 to a page that answers 200 to anything.
const service = createServer((req, res) => {
  if (req.url?.endsWith('/authenticate')) return res.writeHead(302, { Location: '/elsewhere' }).end()
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
] as const)('the %s example, when the service redirects the confirmation', (_name, command, output) => {
  it('starts no session, and sends nothing where the redirect points', async () => {
    followed.length = 0
    const env = { SERVICE_URL: serviceUrl, SERVICE_KEY: 'pk_test', SERVICE_SECRET: secret, PORT: '0' }
    const { child, origin } = await startServer(command, { env, output })
    try {
      const res = await fetch(`${origin}/auth/controller`, {
        headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-Service-Auth': await token() },
        redirect: 'manual',
      })
      expect(res.status).toBe(502)
      expect(res.headers.get('set-cookie') ?? '').not.toMatch(/session=[^;]/)
      expect(followed).toEqual([])
    } finally {
      await stopProcess(child)
    }
  })
})
