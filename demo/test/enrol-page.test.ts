// @vitest-environment node
// The demo's /enrol page over HTTP: what a form post gets back, and that what people type is
// shown escaped, never as markup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KnobClient } from '@service-auth/mock/knobs'
import { startDemo, type Demo } from '../harness.js'
import { callController, enrolWithPhone, mailedEnrollmentId, sessionCookie, signedToken } from './helpers.js'

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
    const knobs = new KnobClient(demo.serviceUrl)
    await knobs.provisionDevice({ token: code! })
    const challenge = await fetch(demo.serviceUrl + '/v1/entity/challenges', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: demo.appUrl },
      body: JSON.stringify({ key: demo.apiKey }),
    })
    const { id } = (await challenge.json()) as { id: string }
    const { token } = await knobs.signChallenge(id, { identifier: 'grace@example.com' })
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

describe('an address enrolled already (account takeover)', () => {
  const outbox = async () => (await (await fetch(demo.serviceUrl + '/__knobs/outbox')).json()) as { to: string; enrollmentId: string; text: string }[]
  const enrolAs = (email: string, cookie?: string) =>
    fetch(demo.appUrl + '/enrol', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie && { Cookie: cookie }) },
      body: 'email=' + encodeURIComponent(email),
    })
  const signedInAs = async (email: string) => {
    const deviceId = await enrolWithPhone(demo, email)
    return sessionCookie(await callController(demo, await signedToken(demo, email, deviceId)))
  }

  it('typed by someone else: no code on the page; a new one goes to the address only', async () => {
    expect((await enrolAs('victim@example.com')).status).toBe(200)
    const mailedBefore = (await outbox()).length
    const res = await enrolAs('victim@example.com')
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain('<h1 id="emailed-heading">Check your e-mail</h1>')
    expect(page).not.toContain('Enrollment QR code')
    expect(page).not.toContain('serviceauth:enroll:')
    const mailed = (await outbox()).slice(mailedBefore)
    expect(mailed.map((message) => message.to)).toEqual(['victim@example.com'])
    expect(page).not.toContain(mailed[0]!.enrollmentId)
  })

  it('typed by the person signed in as it: the code is on the page, as from the welcome page\'s "Add a phone"', async () => {
    const cookie = await signedInAs('owner@example.com')
    const welcome = await (await fetch(demo.appUrl + '/welcome', { headers: { Cookie: cookie } })).text()
    expect(welcome).toContain('<input type="hidden" name="email" value="owner@example.com">')
    const page = await (await enrolAs('owner@example.com', cookie)).text()
    expect(page).toContain('alt="Enrollment QR code"')
    expect(page).toMatch(/the code reads: serviceauth:enroll:[0-9a-f-]{36}/)
  })

  it('typed by a person signed in as someone else: no code on the page', async () => {
    await enrolAs('third@example.com')
    const cookie = await signedInAs('intruder@example.com')
    const page = await (await enrolAs('third@example.com', cookie)).text()
    expect(page).toContain('Check your e-mail')
    expect(page).not.toContain('serviceauth:enroll:')
  })
})

describe('POST /__app/enroll', () => {
  const enroll = (body: unknown, cookie?: string) =>
    fetch(demo.appUrl + '/__app/enroll', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(cookie && { Cookie: cookie }) },
      body: JSON.stringify(body),
    })

  it('a new identity: 201 and its Enrollment; asked again by anyone, 202 {sentTo} with no code, which went to the address', async () => {
    const first = await enroll({ identifier: 'api@example.com' })
    expect(first.status).toBe(201)
    expect(await first.json()).toMatchObject({ id: expect.any(String), base64ImageData: expect.any(String) })
    const again = await enroll({ identifier: 'api@example.com' })
    expect(again.status).toBe(202)
    expect(await again.json()).toEqual({ sentTo: 'api@example.com' })
    expect(await mailedEnrollmentId(demo, 'api@example.com')).toEqual(expect.any(String))
  })

  it('an identity that is no address: 403 for anyone but the person signed in as it, and no code is made', async () => {
    expect((await enroll({ identifier: 'kiosk-7' })).status).toBe(201)
    const enrollments = async () => ((await (await fetch(demo.serviceUrl + '/__knobs/enrollments')).json()) as unknown[]).length
    const before = await enrollments()
    const refused = await enroll({ identifier: 'kiosk-7' })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { detail: string }).detail).toBe('kiosk-7 is enrolled already: sign in as kiosk-7 to add a phone.')
    expect(await enrollments()).toBe(before)
  })

  it('signed in as the identity: 200 and the Enrollment', async () => {
    const deviceId = await enrolWithPhone(demo, 'self@example.com')
    const cookie = sessionCookie(await callController(demo, await signedToken(demo, 'self@example.com', deviceId)))
    const res = await enroll({ identifier: 'self@example.com' }, cookie)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ identity: { identifier: 'self@example.com' }, base64ImageData: expect.any(String) })
  })

  it('a stranger can neither bar an account nor let a barred one back in', async () => {
    const deviceId = await enrolWithPhone(demo, 'kept@example.com')
    expect((await enroll({ identifier: 'kept@example.com', allowed: false })).status).toBe(202)
    expect((await callController(demo, await signedToken(demo, 'kept@example.com', deviceId))).status).toBe(200)

    expect((await enroll({ identifier: 'barred@example.com', allowed: false })).status).toBe(201)
    expect((await enroll({ identifier: 'barred@example.com', allowed: true })).status).toBe(202)
    const barredDevice = await enrolWithPhone(demo, 'barred@example.com')
    expect((await callController(demo, await signedToken(demo, 'barred@example.com', barredDevice))).status).toBe(403)
  })
})
