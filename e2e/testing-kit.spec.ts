// @service-auth/mock in Chromium, as an integrator's tests use it: it reads the code a real
// page shows off the screen and signs or expires exactly that one, says which widget showed it,
// never touches another service's (or another key's) codes, and says what went wrong when it
// cannot, a controller that refuses the signed code included. The pages are the demo's /fixture
// pages, pointed at a mock service of the test's own; the demo's controller knows neither that
// service nor its key, so it refuses every code the kit signs there. A page whose controller does
// know them is the Express example's, started for the test.
import { randomBytes } from 'node:crypto'
import { connectMockService, SignInRefusedError, startMockService, TestKitError, type MockService } from '@service-auth/mock'
import { startApp } from '../examples/express/app.mjs'
import { expect, fixture, test, widget } from './fixtures.js'

/** The service-auth:* events the page saw, by type, with their challenge ids. */
const events = (page: import('@playwright/test').Page) =>
  page.evaluate(() =>
    (((window as any).__events ?? []) as { type: string; detail: { challengeId?: string } }[]).map((e) => [
      e.type.replace('service-auth:', ''),
      e.detail.challengeId,
    ]),
  )

let service: MockService
test.beforeEach(async () => {
  service = await startMockService()
})
test.afterEach(() => service.close())

/** A /fixture page whose widgets use this test's own mock service and key. */
const mockPage = (params: Record<string, string | number> = {}) => fixture({ api: service.url, key: service.key, ...params })

/** What signShownCode rejected with, where the demo's controller refuses the code it signed. */
const refusal = (signing: Promise<unknown>) =>
  signing.then(
    () => {
      throw new Error("The demo's controller accepted a code of another service.")
    },
    (error: unknown) => error as SignInRefusedError,
  )

test("signShownCode: the identity's phone signs the code on screen, and the page signs in with it", async ({ page }) => {
  await service.enrolPhone('ada@example.com')
  const app = await startApp({ serviceUrl: service.url, key: service.key, secret: service.secret, users: new Map([['ada@example.com', { name: 'Ada' }]]) })
  try {
    await page.goto(app.url + '/login')
    const signed = await service.signShownCode(page, 'ada@example.com')
    expect(signed.widget).toEqual({ index: 0, count: 1, id: null })
    expect(signed.text).toBe(`serviceauth:challenge:${signed.challengeId}`)
    await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')
  } finally {
    app.close()
  }
})

test("a controller that refuses the signed code (a wrong secret): signShownCode rejects at once, with its status and the widget's reason", async ({ page }) => {
  await service.enrolPhone('ada@example.com')
  const wrongSecret = randomBytes(32).toString('base64')
  const app = await startApp({ serviceUrl: service.url, key: service.key, secret: wrongSecret, users: new Map([['ada@example.com', { name: 'Ada' }]]) })
  try {
    await page.goto(app.url + '/login')
    const refused = await refusal(service.signShownCode(page, 'ada@example.com'))
    expect(refused).toBeInstanceOf(SignInRefusedError)
    expect(refused).toBeInstanceOf(TestKitError)
    expect(refused).toMatchObject({ reason: 'controller', status: 401, code: { widget: { index: 0, count: 1, id: null } } })
    expect(refused.message).toBe(
      `the page's controller refused the signed code (challenge ${refused.code.challengeId}) with 401: the widget reports service-auth:error, reason "controller". ` +
        `Does the controller verify with the secret of the key ${service.key}, and confirm at this mock service?`,
    )
    // What the person sees meanwhile: the widget says so, beside a new code.
    await expect(page.getByRole('status')).toHaveText('Sign-in failed')
  } finally {
    app.close()
  }
})

test('a widget that does not take the signed code: signShownCode says so once its timeout is over', async ({ page }) => {
  await service.enrolPhone('ada@example.com')
  await page.goto(mockPage())
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
  // The widget's poll waits at the service, so the signature cannot reach it.
  await service.holdNext({ match: 'status' })
  await expect.poll(async () => (await service.held()).map(({ kind }) => kind)).toEqual(['status'])
  await expect(service.signShownCode(page, 'ada@example.com', { timeout: 1000 })).rejects.toThrow(
    /^the widget did not take the signed code \(challenge [\w-]+\) within 1 s: its widget is ready \("Scan with the app"\)$/,
  )
  expect(await service.release()).toBe(1)
  await expect.poll(async () => (await events(page)).map(([type]) => type)).toEqual(['ready', 'signed', 'error', 'ready'])
})

test('it waits for the code to show, and reads the extended kind too', async ({ page }) => {
  await service.enrolPhone('ada@example.com')
  // The code comes a second later: the service holds challenge creation.
  await service.failNext({ status: 503, match: 'create', retryAfter: 1 })
  await page.goto(mockPage({ image: 'qrcode-extended' }))
  await expect(widget(page).getByRole('status')).toHaveText('Reconnecting…')
  const { code: signed } = await refusal(service.signShownCode(page, 'ada@example.com'))
  expect(signed.text).toBe(`${service.url}/app/challenge/${signed.challengeId}`)
  await expect
    .poll(async () => (await events(page)).slice(0, 4))
    .toEqual([
      ['error', undefined],
      ['ready', signed.challengeId],
      ['signed', signed.challengeId],
      ['error', undefined],
    ])
})

test('with two widgets it signs the first and says so, or the one asked for', async ({ page }) => {
  await service.enrolPhone('ada@example.com')
  await page.goto(mockPage({ count: 2 }))
  await expect(page.locator('.sa[data-state="ready"]')).toHaveCount(2)
  const { code: first } = await refusal(service.signShownCode(page, 'ada@example.com'))
  expect(first.widget).toEqual({ index: 0, count: 2, id: null })
  const { code: second } = await refusal(service.signShownCode(page, 'ada@example.com', { widget: '[data-service-auth] >> nth=1' }))
  expect(second.widget).toEqual({ index: 0, count: 1, id: null })
  expect(second.challengeId).not.toBe(first.challengeId)
  await expect
    .poll(async () =>
      (await events(page))
        .filter(([type]) => type === 'signed')
        .map(([, id]) => id)
        .sort(),
    )
    .toEqual([first.challengeId, second.challengeId].sort())
})

test('expireShownCode: the code on screen expires, and the widget shows a new one', async ({ page }) => {
  await page.goto(mockPage())
  const expired = await service.expireShownCode(page)
  await expect
    .poll(async () => (await events(page)).slice(0, 3))
    .toEqual([
      ['ready', expired.challengeId],
      ['expired', expired.challengeId],
      ['ready', expect.any(String)],
    ])
})

test("a service never signs another service's code: parallel tests each keep their own", async ({ page }) => {
  const other = await startMockService()
  try {
    await other.enrolPhone('ada@example.com')
    await service.enrolPhone('ada@example.com')
    await page.goto(fixture({ api: other.url, key: other.key }))
    const error = await service.signShownCode(page, 'ada@example.com').catch((error: unknown) => error)
    expect(error).toBeInstanceOf(TestKitError)
    expect((error as Error).message).toMatch(
      /^the code on the page \(challenge [\w-]+\) is not one of the mock service's at http:\/\/127\.0\.0\.1:\d+: does the page's data-service-api name/,
    )
    await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
    expect(await events(page)).toEqual([['ready', expect.any(String)]])
    // Its own service signs it.
    const { code: signed } = await refusal(other.signShownCode(page, 'ada@example.com'))
    await expect.poll(async () => (await events(page))[1]).toEqual(['signed', signed.challengeId])
  } finally {
    await other.close()
  }
})

test("a key never signs or expires another key's code on the same mock: tests sharing it each keep their own", async ({ page }) => {
  const mine = await connectMockService({ url: service.url, isolate: true })
  expect(mine.key).not.toBe(service.key)
  await mine.enrolPhone('ada@example.com')
  await page.goto(mockPage())
  const message = new RegExp(
    `^the code on the page \\(challenge [\\w-]+\\) is of the key ${service.key}, not ${mine.key}: does the page's data-service-key name ${mine.key}\\?$`,
  )
  await expect(mine.signShownCode(page, 'ada@example.com')).rejects.toThrow(message)
  await expect(mine.expireShownCode(page)).rejects.toThrow(message)
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
  expect(await events(page)).toEqual([['ready', expect.any(String)]])
})

test('errors say what went wrong: no phone, no code', async ({ page }) => {
  await page.goto(mockPage())
  await expect(service.signShownCode(page, 'ada@example.com')).rejects.toThrow(/^ada@example\.com has no phone: call enrolPhone first$/)
  // The code is still there, unsigned.
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')

  await page.goto(mockPage({ key: 'test-unavailable' }))
  await expect(widget(page).getByRole('status')).toHaveText('Reconnecting…')
  await expect(service.signShownCode(page, 'ada@example.com', { timeout: 1000 })).rejects.toThrow(
    'no sign-in code on the page after 1 s: its widget is reconnecting ("Reconnecting…")',
  )
  await page.goto(mockPage({ late: 1 }))
  await expect(service.expireShownCode(page, { timeout: 500 })).rejects.toThrow(
    'no sign-in code on the page after 0.5 s: it has no element with data-service-auth',
  )
})
