// The whole journey as a person makes it: enrol on the site, set the phone up by pointing it at
// the enrollment code, sign in by pointing it at the sign-in code, sign out, sign in again. Then
// the people who must not get in. The phone is the /phone page in a tab of its own; what it
// "scans" is read off the screen with a QR decoder: the sign-in code as @service-auth/mock
// reads it, as an integrator's tests do.
import type { BrowserContext, Page } from '@playwright/test'
import { connectMockService, readShownCode, SignInRefusedError } from '@service-auth/mock'
import { eventTypes, expect, readyIds, test, widget, type Service } from './fixtures.js'
import { readQr, readQrPng } from './qr.js'

const qaPanel = (page: Page) => page.getByRole('region', { name: 'QA panel' })

/** The phone app: scans what its camera reads, then sets itself up or signs. */
class Phone {
  private constructor(readonly page: Page) {}

  static async open(context: BrowserContext): Promise<Phone> {
    const page = await context.newPage()
    await page.goto('/phone')
    return new Phone(page)
  }

  get status() {
    return this.page.getByRole('status')
  }

  async setUp(code: string): Promise<void> {
    await this.page.getByLabel('What the camera read').fill(code)
    await this.page.getByRole('button', { name: 'Set up this phone' }).click()
  }

  async sign(code: string): Promise<void> {
    await this.page.getByLabel('What the camera read').fill(code)
    await this.page.getByRole('button', { name: 'Sign with this phone' }).click()
  }
}

/** Enrols on the site's /enrol page; what the enrollment QR code on screen says. */
async function enrol(page: Page, email: string): Promise<string> {
  await page.goto('/enrol')
  await page.getByLabel('E-mail address').fill(email)
  await page.getByRole('button', { name: 'Enrol' }).click()
  const sent = page.getByRole('region', { name: 'The e-mail that would have been sent' })
  await expect(sent).toContainText(email)
  await expect(sent).toContainText('Set up sign-in with your phone')
  const qr = page.getByRole('img', { name: 'Enrollment QR code' })
  await expect(qr).toBeVisible()
  return readQr(qr)
}

/** A person with a phone set up through the site, looking at the login page. */
async function enrolledOnLogin(page: Page, context: BrowserContext, email: string): Promise<Phone> {
  const phone = await Phone.open(context)
  await phone.setUp(await enrol(page, email))
  await expect(phone.status).toHaveText(`This phone now signs in as ${email}.`)
  await page.goto('/login')
  return phone
}

/** Points the phone at the sign-in code on screen and signs it; the code's challenge id. */
async function signCodeOnScreen(page: Page, phone: Phone): Promise<string> {
  await expect(widget(page).getByRole('img', { name: 'QR code: sign in with the app' })).toBeVisible()
  const { text, challengeId } = await readShownCode(page)
  await phone.sign(text)
  return challengeId
}

// Each test here walks through pages in two tabs (enrol, set the phone up, sign in), reading codes
// off the screen: a long test, given the time of three, so that a busy machine does not cut it short.
test.beforeEach(() => test.slow())

const stateOf = async (service: Service, id: string) => (await service.challenges()).find((challenge) => challenge.id === id)?.state

test('enrol, set the phone up from the code on screen, sign in, sign out, and sign in again', async ({ page, context, service }) => {
  // 1. Enrol a new e-mail; 2. the phone reads the enrollment code off the screen.
  const phone = await Phone.open(context)
  await phone.setUp(await enrol(page, 'ada@example.com'))
  await expect(phone.status).toHaveText('This phone now signs in as ada@example.com.')
  await expect(phone.page.getByText('Set up for ada@example.com')).toBeVisible()

  // 3. Open login; 4. the phone reads the sign-in code off the screen and signs it.
  await page.goto('/login')
  const first = await signCodeOnScreen(page, phone)
  await expect(phone.status).toHaveText('Signed as ada@example.com. The sign-in page goes on by itself.')

  // 5. Welcome, signed in.
  await expect(page).toHaveURL(/\/welcome$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, ada@example.com')

  // 6. Sign out, and sign in again with the same phone.
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/login\?signed-out$/)
  const second = await signCodeOnScreen(page, phone)
  await expect(page).toHaveURL(/\/welcome$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, ada@example.com')

  // The controller confirmed each sign-in at the service, which consumed both codes.
  expect((await service.controllerLog()).map((call) => [call.claims?.jti, call.status])).toEqual([
    [first, 200],
    [second, 200],
  ])
  expect([await stateOf(service, first), await stateOf(service, second)]).toEqual(['consumed', 'consumed'])
})

test('a deleted identity cannot sign in: its phone can no longer sign', async ({ page, context, service }) => {
  const phone = await enrolledOnLogin(page, context, 'gone@example.com')
  await qaPanel(page).getByLabel('Identity').fill('gone@example.com')
  await qaPanel(page).getByRole('button', { name: 'Delete the identity' }).click()
  await expect(qaPanel(page).getByRole('status')).toHaveText('gone@example.com is deleted at the service.')

  const id = await signCodeOnScreen(page, phone)
  await expect(phone.status).toHaveText(/^The service refused \(404\)/)
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
  expect(await stateOf(service, id)).toBe('pending')
  expect(await service.controllerLog()).toEqual([])
})

test('an identity deleted after its phone signed is refused when the controller confirms', async ({ page, context, service }) => {
  const phone = await enrolledOnLogin(page, context, 'gone@example.com')
  await qaPanel(page).getByLabel('Identity').fill('gone@example.com')
  // The widget's next poll waits at the service until the test lets it go: the phone signs and
  // the identity is deleted meanwhile, so the token that poll carries comes from a signing that
  // its identity no longer backs when the controller confirms it. (A held confirmation would be
  // given up by the controller after its own 10 s, a window that a busy machine can miss.)
  await service.hold({ match: 'status' })
  await service.untilHeld('status')
  const id = await signCodeOnScreen(page, phone)
  await expect(phone.status).toHaveText('Signed as gone@example.com. The sign-in page goes on by itself.')
  await qaPanel(page).getByRole('button', { name: 'Delete the identity' }).click()
  await expect(qaPanel(page).getByRole('status')).toHaveText('gone@example.com is deleted at the service.')
  await service.release()

  await expect(widget(page).getByRole('status')).toHaveText('Sign-in failed')
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  expect((await service.controllerLog())[0]).toMatchObject({ status: 401, claims: { jti: id, sub: 'gone@example.com' } })
  expect(page.url()).toMatch(/\/login$/)
})

test('a locked identity sees an error in the widget; unlocked, it signs in', async ({ page, context, service }) => {
  const phone = await enrolledOnLogin(page, context, 'locked@example.com')
  await qaPanel(page).getByLabel('Identity').fill('locked@example.com')
  await qaPanel(page).getByRole('button', { name: 'Lock the identity' }).click()
  await expect(qaPanel(page).getByRole('status')).toHaveText('locked@example.com is locked: the service refuses its sign-ins (423).')

  const id = await signCodeOnScreen(page, phone)
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in failed')
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  expect(await eventTypes(page)).toEqual(['ready', 'signed', 'error', 'ready'])
  expect((await service.controllerLog())[0]).toMatchObject({ status: 423, claims: { sub: 'locked@example.com' } })
  // 423 consumes nothing: the refusal is the lock's, not the code's.
  expect(await stateOf(service, id)).toBe('signed')

  await qaPanel(page).getByRole('button', { name: 'Unlock' }).click()
  await expect(qaPanel(page).getByRole('status')).toHaveText('locked@example.com is unlocked.')
  await signCodeOnScreen(page, phone)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, locked@example.com')
})

/** The controller refused the sign-in of the code `id` with 403, and the widget offers a fresh code; nothing was consumed. */
async function expectRefusedBySite(page: Page, service: Service, id: string, who: string): Promise<void> {
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in failed')
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  await expect(widget(page).getByRole('img')).toBeVisible()
  expect(await eventTypes(page)).toEqual(['ready', 'signed', 'error', 'ready'])
  expect((await page.evaluate(() => (window as any).__events))[2].detail).toMatchObject({ reason: 'controller', status: 403 })
  expect((await service.controllerLog())[0]).toMatchObject({ status: 403, claims: { jti: id, sub: who } })
  // Refused before confirming: the service never consumed the code.
  expect(await stateOf(service, id)).toBe('signed')
  expect(page.url()).toMatch(/\/login$/)
}

test('someone enrolled at the service but unknown to the site is refused by the controller, and the widget offers a fresh code', async ({ page, service }) => {
  // As an integrator tests their own findUser: the test kit gives the stranger a phone, and it signs the code on screen.
  const { serviceUrl: url, apiKey: key, apiSecret: secret } = service.demo
  const kit = connectMockService({ url, key, secret })
  await kit.enrolPhone('stranger@example.com')
  await page.goto('/login')
  // The kit says at once that the site's controller refused the code its phone signed, and why.
  const refused = (await kit.signShownCode(page, 'stranger@example.com').catch((error: unknown) => error)) as SignInRefusedError
  expect(refused).toBeInstanceOf(SignInRefusedError)
  expect(refused).toMatchObject({ reason: 'controller', status: 403, message: expect.stringMatching(/Does the controller let stranger@example\.com in/) })
  await expectRefusedBySite(page, service, refused.code.challengeId, 'stranger@example.com')
})

test('a user the site does not allow is refused by the controller, and the widget offers a fresh code', async ({ page, context, service }) => {
  const res = await fetch(service.demo.appUrl + '/__app/enroll', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ identifier: 'stranger@example.com', allowed: false }),
  })
  const { base64ImageData } = (await res.json()) as { base64ImageData: string }
  const phone = await Phone.open(context)
  await phone.setUp(readQrPng(Buffer.from(base64ImageData, 'base64')))
  await expect(phone.status).toHaveText('This phone now signs in as stranger@example.com.')
  await page.goto('/login')

  const id = await signCodeOnScreen(page, phone)
  await expectRefusedBySite(page, service, id, 'stranger@example.com')
})
