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

test("a pollingUrl or image URL on the page's origin is never requested; the widget says it cannot reach the service", async ({ page, baseURL }) => {
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
  await expect(widget(page).getByRole('status')).toHaveText('Reconnecting…')
  await page.clock.runFor(10_000)
  expect(ownOrigin).toEqual([])
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
