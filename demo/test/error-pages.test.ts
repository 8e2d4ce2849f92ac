// @vitest-environment node
// What the demo answers when it cannot do what was asked: a page for a person's browser, which
// asks for HTML, and problem JSON for everything else (the embed, the phone page's scripts,
// tests, curl), as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type Demo } from '../harness.js'

let demo: Demo
beforeAll(async () => {
  demo = await startDemo()
})
afterAll(() => demo?.close())

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

describe('a missing page', () => {
  it('is an HTML page for a browser, with a way back', async () => {
    const res = await fetch(demo.appUrl + '/no-such-page', { headers: { Accept: BROWSER_ACCEPT } })
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    const page = await res.text()
    expect(page).toContain('<title>Page not found</title>')
    expect(page).toContain('There is nothing at this address.')
    expect(page).toContain('<a href="/">All demo pages</a>')
  })

  for (const accept of ['application/json', '*/*', undefined]) {
    it(`stays problem JSON for ${accept ?? 'a client that names no type'}`, async () => {
      const res = await fetch(demo.appUrl + '/no-such-page', { headers: accept ? { Accept: accept } : {} })
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toBe('application/problem+json')
      expect(await res.json()).toMatchObject({ status: 404, detail: 'There is nothing at this address.', instance: '/no-such-page' })
    })
  }

  it('escapes what the address said', async () => {
    const page = await (await fetch(demo.appUrl + '/%3Cscript%3Ealert(1)%3C/script%3E', { headers: { Accept: 'text/html' } })).text()
    expect(page).not.toContain('<script>alert(1)')
  })
})

describe('other refusals a browser meets', () => {
  it('a form posted from another site gets a page that says why, with a 403', async () => {
    const res = await fetch(demo.appUrl + '/enrol', {
      method: 'POST',
      headers: { Accept: BROWSER_ACCEPT, Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=victim%40example.com',
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await res.text()).toContain('only pages of this site may post here')
  })

  it('a wrong method keeps its Allow header', async () => {
    const res = await fetch(demo.appUrl + '/logout', { headers: { Accept: BROWSER_ACCEPT } })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
  })
})
