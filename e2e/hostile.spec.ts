// A compromised or buggy service, in a real browser: its answers are rewritten on the way, and
// nothing it says may make the page send requests to its own origin (where cookies go), run
// script, or strand the person.
import type { Page } from '@playwright/test'
import { expect, fixture, test, widget } from './fixtures.js'

/** Rewrites every challenge the service creates with `change`. */
const rewriteChallenges = (page: Page, change: (challenge: any, pageOrigin: string) => void) =>
  page.route('**/v1/entity/challenges', async (route) => {
    if (route.request().method() != 'POST') return route.fallback()
    try {
      const response = await route.fetch()
      const challenge = await response.json()
      change(challenge, new URL(route.request().headers().referer ?? 'http://127.0.0.1').origin)
      await route.fulfill({ response, json: challenge })
    } catch {
      // The test ended with this request in flight: nothing to show it to.
    }
  })

test("a pollingUrl or image URL on the page's origin is never requested; the widget stops, and the console says why", async ({ page, baseURL }) => {
  const seen = problems(page)
  const ownOrigin: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.origin == new URL(baseURL!).origin && /account|auth\/controller/.test(url.pathname)) ownOrigin.push(request.url())
  })
  await page.clock.install()
  await rewriteChallenges(page, (challenge, origin) => {
    challenge.pollingUrl = origin + '/account/delete?confirm=yes'
    challenge.authImages = { 'qrcode-standard': origin + '/account/delete?confirm=image' }
    delete challenge.authImagesData
  })
  await page.goto(fixture())
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  await expect(widget(page).getByRole('button')).toHaveText('Try again')
  await page.clock.runFor(10_000)
  expect(ownOrigin).toEqual([])
  expect(seen.console).toEqual([
    expect.stringMatching(/^service-auth: the service's pollingUrl is missing or invalid \(201\): not under http:\/\/127\.0\.0\.1:\d+\.$/),
  ])
})

test('a held poll does not strand an expired code: a new one replaces it', async ({ page, service }) => {
  await service.configure({ challengeTtlMs: 5_000 })
  // Every status poll is held for good, as a misbehaving proxy might.
  await page.route('**/status**', () => {})
  await page.clock.install()
  await page.goto(fixture())
  const code = widget(page).getByRole('img')
  await expect(code).toBeVisible()
  const src = await code.getAttribute('src')
  // The code expires at 5 s; its poll is given up 3 s later, and a new code shows.
  await page.clock.runFor(9_000)
  await expect(code).not.toHaveAttribute('src', src!)
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
})

/** The console's errors, and the page's uncaught ones, as they come. */
function problems(page: Page) {
  const seen = { console: [] as string[], uncaught: [] as string[] }
  page.on('console', (message) => message.type() === 'error' && seen.console.push(message.text()))
  page.on('pageerror', (error) => seen.uncaught.push(error.message))
  return seen
}

test("a QR image the page's policy blocks ends on the error state, after one new code, and the console names img-src and its source", async ({
  page,
  service,
}) => {
  const seen = problems(page)
  // The README's policy as an integrator might copy it, without data: in img-src.
  await page.goto(fixture({ csp: 'strict-no-data' }))
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  await expect(widget(page).getByRole('button')).toHaveText('Try again')
  await expect(widget(page).getByRole('img')).toBeHidden()
  expect(await service.creations()).toHaveLength(2)
  expect(seen.console).toContain("service-auth: the QR image did not load: does the page's CSP allow img-src data:?")
  expect(seen.uncaught).toEqual([])
})

test('an answer of 5 MB ends on the error state, and the console says its size', async ({ page }) => {
  await page.route('**/v1/entity/challenges', async (route) => {
    if (route.request().method() != 'POST') return route.fallback()
    await route.fulfill({
      status: 201,
      contentType: 'application/json',
      headers: { 'access-control-allow-origin': '*' },
      body: `{"padding": "${'x'.repeat(5_000_000)}"}`,
    })
  })
  const seen = problems(page)
  await page.goto(fixture())
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  await expect(widget(page).getByRole('button')).toHaveText('Try again')
  expect(seen.console).toEqual(['service-auth: an answer of 5000015 B or more (201) is over 256 KB.'])
  expect(seen.uncaught).toEqual([])
})

test('an image kind only Object.prototype has (__proto__) ends on the error state, naming the attribute and the kinds offered', async ({ page }) => {
  const seen = problems(page)
  await page.goto(fixture({ image: '__proto__' }))
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  await expect(widget(page).getByRole('button')).toBeHidden()
  expect(seen.console).toEqual([expect.stringMatching(/^service-auth: data-service-auth-image is missing or invalid; offered: qrcode-standard,/)])
  expect(seen.uncaught).toEqual([])
})
