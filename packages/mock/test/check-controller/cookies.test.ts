// @vitest-environment node
// The check judges a sign-in by the cookies a browser would send to --signed-in: a session cookie
// scoped to the controller's own path (a Path of /auth, or none, set from /auth/controller) signs
// no one in on /welcome, and a --signed-in page on another host never gets the cookie at all.
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, handleControllerRequest } from 'service-auth/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkController, connectMockService, startMockService, type MockService } from '../../src/index.js'

const ADA = 'ada@example.com'

let service: MockService
beforeAll(async () => {
  service = await startMockService({ testKeys: false })
})
afterAll(() => service?.close())

/** An app on service-auth/server whose session cookie carries `attributes`; checked with /welcome as --signed-in, on `host`. */
async function check(attributes: string, host = '127.0.0.1') {
  const { url, key, secret } = await connectMockService({ url: service.url, isolate: true })
  const client = createClient({ baseUrl: url, key, secret })
  const sessions = new Set<string>()
  const app = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://app').pathname
    if (path === '/auth/controller') {
      const answer = await handleControllerRequest(req, {
        client,
        secret,
        onRefused: () => {},
        findUser: (identifier) => (identifier === ADA ? { identifier } : undefined),
        startSession() {
          const id = randomUUID()
          sessions.add(id)
          return { location: '/welcome', headers: { 'Set-Cookie': `session=${id}; HttpOnly; SameSite=Lax${attributes}` } }
        },
      })
      res.writeHead(answer.status, answer.headers).end(answer.body)
    } else {
      const id = /(?:^|; )session=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1]
      res.writeHead(path === '/welcome' && id && sessions.has(id) ? 200 : 401).end()
    }
  })
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
  const { port } = app.address() as AddressInfo
  try {
    return await checkController({
      controller: `http://127.0.0.1:${port}/auth/controller`,
      identity: ADA,
      signedIn: `http://${host}:${port}/welcome`,
      service: url,
      key,
      secret,
    })
  } finally {
    app.closeAllConnections()
    await new Promise((resolve) => app.close(resolve))
  }
}

describe('the session cookie, as a browser sends it', () => {
  it.concurrent('with Path=/ signs in', async () => {
    const { checks } = await check('; Path=/')
    expect(checks.find(({ id }) => id === 'valid-sign-in')).toMatchObject({ outcome: 'pass' })
  })

  it.concurrent.each([
    ['; Path=/auth', 'session (Path /auth)'],
    ['', 'session (Path /auth, from the controller’s own path)'],
  ])('scoped to the controller (%j) does not reach /welcome: the valid sign-in fails, and the fix names the Path', async (attributes, named) => {
    const { checks } = await check(attributes)
    expect(checks.find(({ id }) => id === 'valid-sign-in')).toEqual(
      expect.objectContaining({
        outcome: 'fail',
        evidence: 'answered 200 {location: "/welcome"}; GET /welcome: 401, not signed in',
        fix: `Set the session cookie with Path=/: a browser does not send ${named} to /welcome.`,
      }),
    )
  })

  it.concurrent('is never sent to a --signed-in page on another host: the check says so before it starts', async () => {
    await expect(check('; Path=/', 'localhost')).rejects.toThrow(
      /^signedIn http:\/\/localhost:\d+\/welcome is not on the controller's host, 127\.0\.0\.1: a browser sends the session cookie only there\. Name a page of 127\.0\.0\.1$/,
    )
  })
})
