// @vitest-environment node
// The demo serves a caller's own pages on the app's origin (startDemo's `pages`), as the
// benchmark needs for its widget and baseline pages: HTML, or JavaScript for a .js path, ahead
// of the app's routes, and nothing else changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type Demo } from 'service-auth-demo'

let demo: Demo
beforeAll(async () => {
  demo = await startDemo({
    pages: {
      '/bench/page': ({ serviceUrl, apiKey, url }) => `<p data-api="${serviceUrl}" data-key="${apiKey}">${url.searchParams.get('q')}</p>`,
      '/bench/page.js': () => 'console.log(1)',
      '/welcome': () => 'mine',
      '/bench/isolated': () => ({ body: '<p>isolated</p>', headers: { 'Cross-Origin-Opener-Policy': 'same-origin' } }),
    },
  })
})
afterAll(() => demo?.close())

describe('pages of the caller', () => {
  it('serves them as HTML, told where the service is and which key to use', async () => {
    const res = await fetch(demo.appUrl + '/bench/page?q=hi')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await res.text()).toBe(`<p data-api="${demo.serviceUrl}" data-key="${demo.apiKey}">hi</p>`)
  })

  it('serves a .js path as JavaScript', async () => {
    const res = await fetch(demo.appUrl + '/bench/page.js')
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await res.text()).toBe('console.log(1)')
  })

  it("sends the headers a page returns with its body, beside the app's own", async () => {
    const res = await fetch(demo.appUrl + '/bench/isolated')
    expect(await res.text()).toBe('<p>isolated</p>')
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it("matches the path exactly, and comes before the app's own routes", async () => {
    expect((await fetch(demo.appUrl + '/bench/pageX')).status).toBe(404)
    expect((await fetch(demo.appUrl + '/bench/page', { method: 'POST' })).status).toBe(405)
    expect(await (await fetch(demo.appUrl + '/welcome')).text()).toBe('mine')
    expect((await fetch(demo.appUrl + '/login')).status).toBe(200)
  })
})
