// The markup contract, languages, and the default look under a strict Content-Security-Policy.
import type { Page } from '@playwright/test'
import { expect, fixture, readyIds, shownChallenge, test } from './fixtures.ts'

const widget = (page: Page) => page.locator('[data-service-auth]')

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
    await expect(widget(page).getByRole('status')).toHaveText('Sign-in failed')
    // No button: trying again cannot fix the markup.
    await expect(widget(page).getByRole('button')).toBeHidden()
    expect(consoleErrors).toEqual([`${attribute} is missing or invalid`])
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
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in failed')
  expect(consoleErrors).toEqual(['data-service-api is missing or invalid'])
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
  await expect(widget(page).getByRole('img', { name: 'QR-Code zur Anmeldung' })).toBeVisible()
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

test('works and is styled under a strict CSP, loaded with a pinned integrity hash', async ({ page, service }) => {
  const violations: string[] = []
  page.on('console', (message) => /Content Security Policy|Refused/.test(message.text()) && violations.push(message.text()))
  await page.goto(fixture({ csp: 'strict', sri: 1 }))
  const id = await shownChallenge(page)
  await expect(widget(page).getByRole('img')).toBeVisible()
  // The default look is applied although inline styles are forbidden.
  const frame = widget(page).locator('.sa div')
  await expect(frame).toHaveCSS('width', '200px')
  await expect(frame).toHaveCSS('height', '200px')
  await expect(widget(page).locator('.sa')).toHaveCSS('display', 'inline-grid')
  await service.sign(id)
  await expect(page).toHaveURL(/\/welcome$/)
  expect(violations).toEqual([])
})

test('the size of the code follows --sa-size', async ({ page }) => {
  await page.goto(fixture())
  await page.evaluate(() => document.documentElement.style.setProperty('--sa-size', '260px'))
  await expect(widget(page).locator('.sa div')).toHaveCSS('width', '260px')
})

test('several widgets on one page each show their own code', async ({ page, service }) => {
  await page.goto(fixture({ count: 2 }))
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  await expect(widget(page).getByRole('img')).toHaveCount(2)
  const [first] = await readyIds(page)
  await service.sign(first)
  await expect(page).toHaveURL(/\/welcome$/)
})
