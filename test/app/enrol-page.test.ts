// @vitest-environment node
// The demo's /enrol page over HTTP: what a form post gets back, and that what people type is
// shown escaped, never as markup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type Demo } from '../../demo/harness.ts'

let demo: Demo
beforeAll(async () => {
  demo = await startDemo()
})
afterAll(() => demo?.close())

const post = (body: string, contentType = 'application/x-www-form-urlencoded') =>
  fetch(demo.appUrl + '/enrol', { method: 'POST', headers: { 'Content-Type': contentType }, body })

describe('/enrol', () => {
  it('shows the form', async () => {
    const res = await fetch(demo.appUrl + '/enrol')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('<form method="post" action="/enrol"')
  })

  it('enrols the address: the enrollment QR code, and the e-mail the service would have sent', async () => {
    const res = await post('email=ada%40example.com')
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toMatch(/<img class="qr" alt="Enrollment QR code" src="data:image\/png;base64,iVBOR[^"]+">/)
    expect(page).toContain('<dd>ada@example.com</dd>')
    expect(page).toContain('Set up sign-in with your phone')
    expect(page).toMatch(/the code reads: serviceauth:enroll:[0-9a-f-]{36}/)
  })

  it('makes the address a user of the site: its phone signs, and the controller lets it in', async () => {
    const page = await (await post('email=grace%40example.com')).text()
    const code = /the code reads: (serviceauth:enroll:[0-9a-f-]+)/.exec(page)![1]
    const knob = (path: string, body: unknown) =>
      fetch(`${demo.serviceUrl}/__knobs/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    expect((await knob('devices', { token: code })).status).toBe(201)
    const challenge = await fetch(demo.serviceUrl + '/v1/entity/challenges', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: demo.appUrl },
      body: JSON.stringify({ key: demo.apiKey }),
    })
    const { id } = (await challenge.json()) as { id: string }
    const { token } = (await (await knob(`challenges/${id}/sign`, { identifier: 'grace@example.com' })).json()) as { token: string }
    const res = await fetch(demo.appUrl + '/auth/controller', { headers: { 'X-Service-Auth': token, 'X-Requested-With': 'XMLHttpRequest' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ location: '/welcome' })
    expect(res.headers.get('set-cookie')).toMatch(/^sid=/)
  })

  it('asks again for something that is not an address, showing what was typed escaped', async () => {
    const res = await post('email=' + encodeURIComponent('"><script>alert(1)</script>'))
    expect(res.status).toBe(400)
    const page = await res.text()
    expect(page).not.toContain('<script>alert(1)</script>')
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
    expect(page).toContain('aria-invalid="true"')
    expect(page).toContain('Enter an e-mail address')
  })

  it('takes only a form', async () => {
    expect((await post('{"email":"ada@example.com"}', 'application/json')).status).toBe(415)
  })
})
