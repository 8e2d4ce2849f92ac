// @vitest-environment node
// The controller's test modes (`mode=redirect|plain|deny|location&to=...`) reshape its answer
// so end-to-end tests can cover every kind of controller. A crafted /fixture link could use
// mode=location to send a freshly signed-in person to another site, so the demo `npm start`
// serves has none of them, and even with them on, `to` never names another origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type Demo } from '../harness.js'
import { callController, enrolWithPhone, signedToken } from './helpers.js'

let plain: Demo
let testing: Demo
beforeAll(async () => {
  ;[plain, testing] = await Promise.all([startDemo(), startDemo({ testModes: true })])
})
afterAll(() => Promise.all([plain?.close(), testing?.close()]))

async function signInWith(demo: Demo, query: string): Promise<Response> {
  const deviceId = await enrolWithPhone(demo, 'ada@example.com')
  return callController(demo, await signedToken(demo, 'ada@example.com', deviceId), undefined, query)
}

describe('the demo as npm start serves it', () => {
  it('has no test modes: mode=location to another site is refused, and no session starts', async () => {
    const res = await signInWith(plain, '?mode=location&to=' + encodeURIComponent('https://evil.example/phish'))
    expect(res.status).toBe(400)
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(await res.text()).not.toContain('evil.example')
  })

  it('signs in as a real controller does, without a mode', async () => {
    const res = await signInWith(plain, '')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ location: '/welcome' })
  })
})

describe('the demo with test modes on (the end-to-end tests)', () => {
  it('hands over a location on this site', async () => {
    const res = await signInWith(testing, '?mode=location&to=' + encodeURIComponent('/welcome?from=json'))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ location: '/welcome?from=json' })
  })

  for (const to of ['https://evil.example/phish', '//evil.example/phish', 'http://127.0.0.2/']) {
    it(`still refuses to send anyone to another origin: ${to}`, async () => {
      const res = await signInWith(testing, '?mode=location&to=' + encodeURIComponent(to))
      expect(res.status).toBe(400)
      expect(res.headers.get('set-cookie')).toBeNull()
    })
  }
})
