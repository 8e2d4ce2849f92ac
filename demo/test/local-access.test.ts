// @vitest-environment node
// The demo as `npm start` runs it is safe to leave running: the mock's knobs answer the app's own
// pages and no others, and the app answers only its own names (against DNS rebinding).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withHost } from '@service-auth/http'
import { startDemo, type Demo } from '../harness.js'

describe('startDemo, as npm start runs it', () => {
  let demo: Demo
  beforeAll(async () => {
    demo = await startDemo()
  })
  afterAll(() => demo?.close())

  it("turns the knobs on for the app's pages (127.0.0.1 and localhost), and no others", async () => {
    for (const origin of [demo.appUrl, demo.appUrl.replace('127.0.0.1', 'localhost')]) {
      const res = await fetch(`${demo.serviceUrl}/__knobs/challenges`, { headers: { Origin: origin, 'Sec-Fetch-Site': 'same-site' } })
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBe(origin)
    }
    const other = `http://127.0.0.1:${Number(new URL(demo.appUrl).port) + 1}`
    expect((await fetch(`${demo.serviceUrl}/__knobs/reset`, { method: 'POST', headers: { Origin: other } })).status).toBe(403)
  })

  it('the app, too, answers only its own names', async () => {
    const port = new URL(demo.appUrl).port
    expect(await withHost(demo.appUrl + '/__app/controller-log', `evil.example:${port}`)).toBe(403)
    expect(await withHost(demo.appUrl + '/__app/controller-log', `localhost:${port}`)).toBe(200)
  })
})
