// @vitest-environment node
// Every HTML page of the demo refuses to be framed (clickjacking: a hostile site could lay the
// login or enrol page under its own buttons), with a Content-Security-Policy on each, and lets
// its address go to its own origin only (Referrer-Policy); a page with a policy of its own (the
// strict fixture) keeps it, with the frame rule merged in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recommendedPolicy } from '../app/recommended-policy.js'
import { startDemo, type Demo } from '../harness.js'

let demo: Demo
beforeAll(async () => {
  demo = await startDemo({ pages: { '/own-page': () => '<!doctype html><title>Own</title>' } })
})
afterAll(() => demo?.close())

const PAGES = ['/', '/login', '/enrol', '/welcome', '/phone', '/fixture', '/fixture?late=1', '/own-page']

const directives = (policy: string | null) => (policy ?? '').split(';').map((directive) => directive.trim())

describe('demo pages', () => {
  for (const path of PAGES) {
    it(`${path} cannot be framed`, async () => {
      const res = await fetch(demo.appUrl + path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(directives(res.headers.get('content-security-policy'))).toContain("frame-ancestors 'none'")
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('referrer-policy')).toBe('same-origin')
    })
  }

  it('an error page sends the same headers', async () => {
    const res = await fetch(demo.appUrl + '/no-such-page', { headers: { Accept: 'text/html' } })
    expect(res.status).toBe(404)
    expect(res.headers.get('referrer-policy')).toBe('same-origin')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
  })

  it('the enrol form, sent back with an error, cannot be framed either', async () => {
    const res = await fetch(demo.appUrl + '/enrol', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: demo.appUrl },
      body: 'email=not-an-address',
    })
    expect(res.status).toBe(400)
    expect(directives(res.headers.get('content-security-policy'))).toContain("frame-ancestors 'none'")
    expect(res.headers.get('x-frame-options')).toBe('DENY')
  })

  it("the strict fixture sends the README's policy (this site standing in for the CDN), with the every-page rules merged in once", async () => {
    const res = await fetch(demo.appUrl + '/fixture?csp=strict')
    const policy = directives(res.headers.get('content-security-policy'))
    expect(policy).toEqual([...recommendedPolicy(demo.appUrl, demo.serviceUrl), "form-action 'self'"])
    expect(policy.filter((directive) => directive.startsWith('base-uri'))).toEqual(["base-uri 'none'"])
    expect(res.headers.get('x-frame-options')).toBe('DENY')
  })

  it('a page without a policy of its own still gets no plugins, no <base> and forms that post only here', async () => {
    const policy = directives((await fetch(demo.appUrl + '/login')).headers.get('content-security-policy'))
    expect(policy).toEqual(expect.arrayContaining(["object-src 'none'", "base-uri 'none'", "form-action 'self'"]))
  })
})
