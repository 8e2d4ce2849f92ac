// @vitest-environment node
// GET /__app/controller-log tells tests what the controller received, and anyone can read it:
// it must never hand out a usable token or session cookie, only fingerprints of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fingerprint } from '@service-auth/http'
import { startDemo, type Demo } from '../harness.js'
import { callController, enrolWithPhone, sessionCookie, signedToken } from './helpers.js'

let demo: Demo
beforeAll(async () => {
  demo = await startDemo()
})
afterAll(() => demo?.close())

const readLog = async () => (await fetch(demo.appUrl + '/__app/controller-log')).text()

describe('the controller log', () => {
  it('shows the token, the Authorization header and the cookies only as fingerprints', async () => {
    const deviceId = await enrolWithPhone(demo, 'ada@example.com')
    const first = await callController(demo, await signedToken(demo, 'ada@example.com', deviceId))
    const liveSession = sessionCookie(first)
    expect(liveSession).toMatch(/^sid=.{20,}/)

    // A second sign-in from the same browser: the request carries the live session cookie.
    const token = await signedToken(demo, 'ada@example.com', deviceId)
    await callController(demo, token, `${liveSession}; theme=dark`)
    const bearer = await signedToken(demo, 'ada@example.com', deviceId)
    await fetch(demo.appUrl + '/auth/controller', { headers: { Authorization: 'Bearer ' + bearer, 'X-Requested-With': 'XMLHttpRequest' } })

    const log = await readLog()
    for (const secret of [token, bearer, liveSession.slice('sid='.length)]) expect(log).not.toContain(secret)
    const [, second, third] = JSON.parse(log)
    expect(second.headers['x-service-auth']).toBe(fingerprint(token))
    expect(second.headers.cookie).toBe(`sid=${fingerprint(liveSession.slice('sid='.length))}; theme=${fingerprint('dark')}`)
    expect(third.headers.authorization).toBe('Bearer ' + fingerprint(bearer))
    // The one-time code is a secret too; who signed in and which challenge stay readable.
    expect(second.claims).toEqual({ jti: expect.any(String), sub: 'ada@example.com', otp: expect.stringMatching(/^sha256:[0-9a-f]{12}$/) })
  })
})
