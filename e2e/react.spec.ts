// The React component in Chromium: e2e/react-page.tsx, a React 19 page under StrictMode with two
// widgets, bundled by esbuild from the built package as an integrator's bundler would.
// (Once @service-auth/mock lands, its startMockService and signShownCode can stand in for the
// demo harness and the sign knob here.)
import { startDemo, type Demo } from 'service-auth-demo'
import { expect, test as base } from './fixtures.js'
import { reactPages } from './react-demo.js'
import type { PageRecord } from './react-page.js'

// This spec's demo also serves the React page (the shared one has no extra pages).
const test = base.extend<object, { demo: Demo }>({
  demo: [
    async ({}, use) => {
      const demo = await startDemo({ testModes: true, pages: await reactPages() })
      await use(demo)
      await demo.close()
    },
    { scope: 'worker' },
  ],
})

const recorded = (page: import('@playwright/test').Page): Promise<PageRecord> => page.evaluate(() => (window as unknown as { __page: PageRecord }).__page)
const isCreation = (request: { method: string; url: string }) => request.method === 'POST' && new URL(request.url).pathname === '/v1/entity/challenges'

test('under StrictMode each widget makes one challenge request; one signs in, the removed one asks nothing more', async ({ page, service }) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
  await page.goto('/react')
  const first = page.locator('.first')
  const second = page.locator('.second')
  for (const widget of [first, second]) {
    await expect(widget.getByRole('img', { name: 'QR code: sign in with the app' })).toBeVisible()
    await expect(widget.getByRole('status')).toHaveText('Scan with the app')
  }

  // One challenge per widget: in the page, at the service, and on the phone's list of codes.
  expect((await recorded(page)).requests.filter(isCreation)).toHaveLength(2)
  expect(await service.creations()).toHaveLength(2)
  expect(await service.challenges()).toHaveLength(2)
  const { ready } = await recorded(page)
  expect(ready.first).toHaveLength(1)
  expect(ready.second).toHaveLength(1)

  // The click re-renders the page, so the first widget gets new inline callbacks: it keeps its code.
  await page.getByRole('button', { name: 'Remove the second' }).click()
  await expect(second).toHaveCount(0)
  await service.sign(ready.first[0]!, 'ada@example.com')
  await expect(first.getByRole('status')).toHaveText('Signed in')
  await expect(page.getByText('The app takes over: next is')).toHaveText(/\/welcome$/)

  const after = await recorded(page)
  expect(after.renders).toBeGreaterThan(1)
  expect(after.ready).toEqual(ready)
  const sinceRemoval = after.requests.filter((request) => request.at >= after.removedAt!)
  // The sign-in went on meanwhile (the first widget's polls and the controller call) ...
  expect(sinceRemoval.some((request) => request.url.includes('/auth/controller'))).toBe(true)
  // ... and the removed widget asked nothing: no poll of its code, no new code.
  expect(sinceRemoval.filter((request) => request.url.includes(ready.second[0]!) || isCreation(request))).toEqual([])

  // The controller started the session: the protected page knows who signed in.
  await page.goto('/welcome')
  await expect(page.getByRole('heading')).toHaveText('Welcome, ada@example.com')
  expect(consoleErrors).toEqual([])
})
