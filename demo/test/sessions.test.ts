// @vitest-environment node
// The demo's own sign-in sessions and forms, as a copied integration would have them: each
// sign-in gets a fresh session id and ends the one before, and no other site can post a form
// (enrol, sign out) or call the back office in a signed-in person's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type Demo } from '../harness.js'
import { callController, enrolWithPhone, sessionCookie, signedToken } from './helpers.js'

let demo: Demo
beforeAll(async () => {
  demo = await startDemo()
})
afterAll(() => demo?.close())

const welcomeHeading = async (cookie: string) =>
  /<h1>([^<]*)<\/h1>/.exec(await (await fetch(demo.appUrl + '/welcome', { headers: { Cookie: cookie } })).text())?.[1]

describe('sign-in sessions', () => {
  it('a new sign-in gets a fresh session id, and the previous one no longer works', async () => {
    const deviceId = await enrolWithPhone(demo, 'ada@example.com')
    const before = sessionCookie(await callController(demo, await signedToken(demo, 'ada@example.com', deviceId)))
    expect(await welcomeHeading(before)).toBe('Welcome, ada@example.com')

    const after = sessionCookie(await callController(demo, await signedToken(demo, 'ada@example.com', deviceId), before))
    expect(after).toMatch(/^sid=.{20,}/)
    expect(after).not.toBe(before)
    expect(await welcomeHeading(after)).toBe('Welcome, ada@example.com')
    expect(await welcomeHeading(before)).toBe('Not signed in')
  })
})

describe('posts from other sites', () => {
  const enrol = (email: string, headers: Record<string, string>) =>
    fetch(demo.appUrl + '/enrol', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: 'email=' + encodeURIComponent(email),
    })
  const mailedTo = async (address: string) =>
    ((await (await fetch(demo.serviceUrl + '/__knobs/outbox')).json()) as { to: string }[]).some((message) => message.to === address)

  it('the enrol form refuses a post from another origin with a 403, and enrols no one', async () => {
    const res = await enrol('victim@example.com', { Origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(res.headers.get('content-type')).toBe('application/problem+json')
    expect(await mailedTo('victim@example.com')).toBe(false)
  })

  it("refuses a cross-site post that names no Origin, by the browser's Sec-Fetch-Site", async () => {
    expect((await enrol('victim@example.com', { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
    expect(await mailedTo('victim@example.com')).toBe(false)
  })

  it('takes the form from its own page', async () => {
    const res = await enrol('grace@example.com', { Origin: demo.appUrl, 'Sec-Fetch-Site': 'same-origin' })
    expect(res.status).toBe(200)
    expect(await mailedTo('grace@example.com')).toBe(true)
  })

  it('another site cannot sign a person out, or reset the app', async () => {
    const deviceId = await enrolWithPhone(demo, 'ada@example.com')
    const session = sessionCookie(await callController(demo, await signedToken(demo, 'ada@example.com', deviceId)))
    const logout = await fetch(demo.appUrl + '/logout', { method: 'POST', headers: { Origin: 'https://evil.example', Cookie: session } })
    expect(logout.status).toBe(403)
    const reset = await fetch(demo.appUrl + '/__app/reset', { method: 'POST', headers: { Origin: 'https://evil.example' } })
    expect(reset.status).toBe(403)
    expect(await welcomeHeading(session)).toBe('Welcome, ada@example.com')
  })
})
