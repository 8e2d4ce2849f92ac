// Pages with a strict Content-Security-Policy: no 'unsafe-inline' for styles, and Trusted Types
// enforced with no policy at all. The widget must look and work the same, with no violation.
import { createServer } from 'node:http'
import type { Page } from '@playwright/test'
import { recommendedPolicy } from 'service-auth-demo'
import { closeServer, listen } from '@service-auth/http'
import { expect, fixture, shownChallenge, test, widget } from './fixtures.js'
import { frame } from './states.js'

const violations = (page: Page) => page.evaluate(() => (window as any).__violations)

test("under the README's policy (Trusted Types enforced, default-src 'none'), styled and signing in, with no violation", async ({ page, service, demo }) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
  const response = await page.goto(fixture({ csp: 'strict', sri: 1 }))
  // The policy README.md recommends, word for word (test/readme.test.ts), the demo's origins for its examples'.
  const policy = recommendedPolicy(demo.appUrl, demo.serviceUrl)
  expect(response!.headers()['content-security-policy']).toBe([...policy, "form-action 'self'"].join('; '))
  expect(policy).toEqual(
    expect.arrayContaining(["default-src 'none'", "base-uri 'none'", "object-src 'none'", "frame-ancestors 'none'", "require-trusted-types-for 'script'"]),
  )
  expect(response!.headers()['content-security-policy']).not.toContain('unsafe-inline')

  const shown = await shownChallenge(page)
  expect(await violations(page)).toEqual([])
  await service.sign(shown)
  await page.waitForURL(/\/welcome/)
  expect(consoleErrors).toEqual([])
})

test('under a strict CSP the stylesheet applies, pinned by its integrity hash', async ({ page }) => {
  await page.goto(fixture({ csp: 'strict', sri: 1 }))
  await shownChallenge(page)
  await expect(frame(page)).toHaveCSS('border-top-left-radius', '12px')
  const link = page.locator('link[href$="service-auth.css"]')
  await expect(link).toHaveAttribute('integrity', /^sha(256|384)-/)
  await expect(link).toHaveAttribute('crossorigin', 'anonymous')
  expect(await violations(page)).toEqual([])
})

test("the script adds no stylesheet of its own: without the page's link the widget works, unstyled", async ({ page, service }) => {
  await page.goto(fixture({ css: 'none' }))
  await expect(page.locator('link[rel=stylesheet][href*="service-auth"]')).toHaveCount(0)
  await service.sign(await shownChallenge(page))
  await page.waitForURL(/\/welcome/)
})

test('a stylesheet tampered with on the way is refused, and the widget still works unstyled', async ({ page }) => {
  await page.route('**/service-auth.css', (route) => route.fulfill({ contentType: 'text/css', body: '.sa img { visibility: hidden }' }))
  await page.goto(fixture())
  await shownChallenge(page)
  await expect(widget(page).getByRole('img')).toHaveCSS('visibility', 'visible')
  await expect(frame(page)).toHaveCSS('border-top-left-radius', '0px')
})

test('another site cannot frame the sign-in page: the browser refuses to show it', async ({ page, demo }) => {
  // A hostile site of its own origin, laying the login page under its buttons. The stylesheet
  // beside it is no page and may be framed: it shows that framing works at all here.
  const hostile = createServer((_req, res) =>
    res
      .writeHead(200, { 'Content-Type': 'text/html' })
      .end(`<!doctype html><title>Win a prize</title><iframe src="${demo.appUrl}/public/app.css"></iframe><iframe src="${demo.appUrl}/login"></iframe>`),
  )
  const hostileUrl = await listen(hostile, 0)
  try {
    await page.goto(hostileUrl)
    const frameUrls = () =>
      page
        .frames()
        .slice(1)
        .map((frame) => frame.url())
    // Chromium swaps a refused frame's document for its error page.
    await expect.poll(frameUrls).toEqual([`${demo.appUrl}/public/app.css`, 'chrome-error://chromewebdata/'])
    await expect(page.frameLocator('iframe').nth(1).getByRole('heading', { name: 'Sign in' })).toHaveCount(0)
  } finally {
    await closeServer(hostile)
  }
})
