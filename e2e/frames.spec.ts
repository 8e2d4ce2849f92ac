// The widget inside frames. A frame the browser does not render (display: none, or cross-origin and
// out of view) runs no ResizeObserver and is not hidden to its page (document.hidden is false): a
// widget removed there, alone in its parent, went on polling, and could sign the person in. And an
// about:srcdoc frame, whose document has its parent's origin although its location says "null".
// (The framed page is served by page.route, which Chromium's local network access checks take for a
// public page, so they are off for this file.)
import { chromiumLaunchOptions } from './chromium.js'
import { expect, fixture, test } from './fixtures.js'

const base = chromiumLaunchOptions()
test.use({ launchOptions: { ...base, args: [...(base.args ?? []), '--disable-features=LocalNetworkAccessChecks'] } })

for (const how of ['display: none', 'out of view'] as const) {
  test(`a widget removed in a cross-origin frame the browser does not render (${how}) is destroyed, with its requests`, async ({ page, service, demo }) => {
    await page.goto(fixture({ late: 1 }))
    const markup = await page.evaluate(() => (document.getElementById('late-widget') as HTMLTemplateElement).innerHTML)
    // localhost is the demo app too (the service allows both names), but another origin to the page.
    const framed = `http://localhost:${new URL(demo.appUrl).port}/frame-under-test`
    await page.route(framed, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><link rel="stylesheet" href="/service-auth.css"><div id="wrap">${markup}</div><script src="/service-auth.js"></script>`,
      }),
    )
    await page.evaluate((src) => {
      const frame = document.createElement('iframe')
      frame.src = src
      frame.style.cssText = 'width: 300px; height: 400px'
      document.body.append(frame)
    }, framed)
    await expect.poll(async () => (await service.polls()).length).toBeGreaterThan(0)
    await page.evaluate((how) => {
      const frame = document.querySelector('iframe')!
      if (how == 'display: none') frame.style.display = 'none'
      else frame.style.marginTop = '20000px'
    }, how)
    const frame = page.frames().find((f) => f !== page.mainFrame())!
    // The framed page's own script removes its widget (its single-page app moving on), leaving
    // its parent with no element, and keeps the element to ask for its widget.
    await frame.evaluate(() => {
      const el = document.querySelector('#wrap [data-service-auth]')!
      ;(window as any).removed = el
      el.remove()
    })
    // Destroyed: everything it had in flight is aborted, and nothing more is asked for.
    await expect.poll(() => frame.evaluate(() => (window as any).ServiceAuth.get((window as any).removed) === undefined)).toBe(true)
  })
}

test('a widget in an about:srcdoc frame, whose location has no origin, takes the page’s own and shows a code', async ({ page }) => {
  await page.goto(fixture({ late: 1 }))
  const markup = await page.evaluate(() => (document.getElementById('late-widget') as HTMLTemplateElement).innerHTML)
  await page.evaluate((markup) => {
    const frame = document.createElement('iframe')
    frame.srcdoc = `<!doctype html>${markup}<script src="/service-auth.js"></script>`
    document.body.append(frame)
  }, markup)
  const frame = page.frameLocator('iframe')
  await expect(frame.locator('[data-service-auth] img')).toBeVisible()
  await expect(frame.getByRole('status')).toHaveText('Scan with the app')
})
