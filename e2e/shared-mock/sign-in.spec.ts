// Six sign-in stories of a login page, each steering the mock through the test kit as the README
// shows: run against one shared mock by four workers at once, and against a mock per test. The
// kit acts through the test's own key, so no test's failure, delay, hold or signing reaches another.
import { readShownCode } from '@service-auth/mock'
import { expect, test, widgetEvents } from './fixtures.js'

test.beforeEach(async ({ service }) => {
  await service.enrolPhone('ada@example.com')
})

test('Ada signs in with her phone', async ({ page, service, loginPage }) => {
  await page.goto(loginPage)
  await service.signShownCode(page, 'ada@example.com')
  await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')
})

test('a code that expires is replaced by a new one, which signs in', async ({ page, service, loginPage }) => {
  await page.goto(loginPage)
  const expired = await service.expireShownCode(page)
  await expect.poll(async () => (await readShownCode(page)).challengeId).not.toBe(expired.challengeId)
  const signed = await service.signShownCode(page, 'ada@example.com')
  expect(signed.challengeId).not.toBe(expired.challengeId)
  await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')
})

test('the service is down (503) for a moment: the page reconnects by itself, then signs in', async ({ page, service, loginPage }) => {
  await service.failNext({ status: 503, match: 'create', retryAfter: 1 })
  await page.goto(loginPage)
  await expect
    .poll(async () => (await widgetEvents(page)).map(({ type, detail }) => [type, detail.status]))
    .toEqual([
      ['error', 503],
      ['ready', undefined],
    ])
  await service.signShownCode(page, 'ada@example.com')
  await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')
})

test('too many requests (429): the page waits as long as Retry-After says, then signs in', async ({ page, service, loginPage }) => {
  await service.failNext({ status: 429, match: 'create', retryAfter: 2 })
  await page.goto(loginPage)
  await expect.poll(async () => (await widgetEvents(page)).map(({ type }) => type)).toEqual(['error', 'ready'])
  const [error, ready] = await widgetEvents(page)
  expect(error!.detail).toEqual({ reason: 'service', status: 429, retryAfter: 2000 })
  // Its own backoff would have tried again within a second. (The page's clock, coarsened: a little slack.)
  expect(ready!.at - error!.at).toBeGreaterThanOrEqual(1950)
  await service.signShownCode(page, 'ada@example.com')
  await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')
})

test('a slow confirmation at the service: the sign-in waits for it and completes', async ({ page, service, loginPage }) => {
  await service.delayNext({ ms: 1500, match: 'authenticate' })
  await page.goto(loginPage)
  const started = Date.now()
  // signShownCode resolves once the page signed in: after the controller's confirmation, which waited.
  await service.signShownCode(page, 'ada@example.com')
  expect(Date.now() - started).toBeGreaterThanOrEqual(1500)
  await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')
})

test('while the service holds the confirmation the page says so; released, Ada is signed in', async ({ page, service, loginPage }) => {
  await service.holdNext({ match: 'authenticate' })
  await page.goto(loginPage)
  // Not awaited yet: it resolves only once the held confirmation goes on.
  const signing = service.signShownCode(page, 'ada@example.com')
  await expect.poll(async () => (await service.held()).map(({ kind }) => kind)).toEqual(['authenticate'])
  await expect(page.getByRole('status')).toHaveText('Signing in…')
  expect(await service.release()).toBe(1)
  await signing
  await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')
})
