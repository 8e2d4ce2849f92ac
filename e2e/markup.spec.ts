// The markup contract and languages. (The look, and strict CSPs: theming.spec.ts, csp.spec.ts.)
import { expect, fixture, readyIds, shownChallenge, test, widget } from './fixtures.js'

for (const [attribute, param] of [
  ['data-service-key', 'key'],
  ['data-service-auth-url', 'auth-url'],
] as const) {
  test(`a missing ${attribute} gives one console error naming it and a visible error, never an exception`, async ({ page, service }) => {
    const consoleErrors: string[] = []
    const exceptions: string[] = []
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
    page.on('pageerror', (error) => exceptions.push(error.message))
    await page.goto(fixture({ [param]: '__none__' }))
    await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
    // No button: trying again cannot fix the markup.
    await expect(widget(page).getByRole('button')).toBeHidden()
    expect(consoleErrors).toEqual([`service-auth: ${attribute} is missing or invalid`])
    expect(exceptions).toEqual([])
    expect(await service.creations()).toHaveLength(0)
    const events = await page.evaluate(() => (window as any).__events)
    expect(events).toEqual([{ type: 'service-auth:error', detail: expect.objectContaining({ reason: 'config' }) }])
  })
}

test('data-service-api that is not http(s) is refused by name', async ({ page }) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
  await page.goto(fixture({ api: 'javascript:alert(1)' }))
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  expect(consoleErrors).toEqual(['service-auth: data-service-api is missing or invalid'])
})

test('a widget without data-service-api, on the published build (no default service), says so at once by name and asks nothing', async ({ page, service }) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
  await page.goto(fixture({ api: '__none__' }))
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  await expect(widget(page).getByRole('button')).toBeHidden()
  expect(consoleErrors).toEqual(['service-auth: data-service-api is missing or invalid'])
  expect(await service.creations()).toHaveLength(0)
})

test('data-service-auto-start="false" waits for the person, or for start()', async ({ page, service }) => {
  await page.goto(fixture({ 'auto-start': 'false' }))
  const button = widget(page).getByRole('button', { name: 'Show a new code' })
  await expect(button).toBeVisible()
  expect(await service.creations()).toHaveLength(0)
  await button.click()
  await shownChallenge(page)
  await expect(widget(page).getByRole('img')).toBeVisible()

  await page.evaluate(() => (window as any).ServiceAuth.get(document.querySelector('[data-service-auth]')).stop())
  await expect(button).toBeVisible()
  await expect(widget(page).getByRole('img')).toBeHidden()
  await page.evaluate(() => (window as any).ServiceAuth.get(document.querySelector('[data-service-auth]')).start())
  await expect.poll(() => readyIds(page)).toHaveLength(2)
})

test('German texts come from data-service-locale, then <html lang>', async ({ page }) => {
  await page.goto(fixture({ locale: 'de' }))
  await expect(widget(page).getByRole('status')).toHaveText('Mit der App scannen')
  await expect(widget(page).getByRole('img', { name: 'QR-Code: mit der App anmelden' })).toBeVisible()
  await expect(widget(page).getByText(/^Läuft ab in \d\d:\d\d$/)).toBeVisible()

  await page.goto(fixture({ lang: 'de-AT' }))
  await expect(widget(page).getByRole('status')).toHaveText('Mit der App scannen')
  await page.goto(fixture({ lang: 'de', locale: 'en' }))
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
})

test.describe('the browser language decides last', () => {
  test.use({ locale: 'de-DE' })
  test('without data-service-locale or <html lang>', async ({ page }) => {
    await page.goto(fixture({ lang: '__none__' }))
    await expect(widget(page).getByRole('status')).toHaveText('Mit der App scannen')
  })
})

test('several widgets on one page each show their own code', async ({ page, service }) => {
  await page.goto(fixture({ count: 2 }))
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  await expect(widget(page).getByRole('img')).toHaveCount(2)
  const [first] = await readyIds(page)
  await service.sign(first)
  await expect(page).toHaveURL(/\/welcome$/)
})

test('a mistyped data-service-auth-image is a config error naming the kinds offered, after one request and no retries', async ({ page, service }) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
  await page.clock.install()
  await page.goto(fixture({ image: 'bogus' }))
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  await expect(widget(page).getByRole('button')).toBeHidden()
  expect(consoleErrors).toEqual([expect.stringMatching(/^service-auth: data-service-auth-image is missing or invalid; offered: .*qrcode-standard/)])
  // Nothing retries: a reconnect loop would have created a challenge every few seconds.
  await page.clock.runFor(120_000)
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  expect(await service.creations()).toHaveLength(1)
})

test("data-service-auth-type is sent as the challenge's authType, as the incumbent embed did", async ({ page, service }) => {
  await page.goto(fixture({ 'auth-type': 'web' }))
  await shownChallenge(page)
  const [creation] = await service.creations()
  expect(JSON.parse(creation!.body)).toMatchObject({ authType: 'web' })
})

test("a page's own top-level `scheduler` (the DHTMLX calendar has one), which hides the browser's from bare names, does not stop the widget", async ({
  page,
}) => {
  // Declared in a classic script before the embed's, as a page's code would: the demo's event log.
  await page.route('**/public/events.js', async (route) => {
    const response = await route.fetch()
    await route.fulfill({ response, body: 'let scheduler = { init() {} }\n' + (await response.text()) })
  })
  await page.goto(fixture())
  expect(await page.evaluate(() => typeof (globalThis as any).scheduler?.postTask)).toBe('function')
  await shownChallenge(page)
})
