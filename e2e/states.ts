// Brings a widget into each state a person can see, on purpose and without waiting on time:
// the mock service's knobs decide when codes fail, expire or stay away, Playwright's clock stands still so
// the countdown reads the same every run, and routes hold what must stay in flight.
import type { Page, Route } from '@playwright/test'
import { expect, fixture, readyIds, shownChallenge, widget, type Service } from './fixtures.js'
import { drawQrPng } from './qr.js'

export const STATES = ['loading', 'ready', 'signing', 'reconnecting', 'expired', 'error'] as const
export type VisibleState = (typeof STATES)[number]

/** The widget's own box: its frame, without the host element's full-width line. */
export const frame = (page: Page) => page.locator('.sa')

/** The same code on every run, so screenshots of it can be compared. */
const FIXED_CODE = drawQrPng('serviceauth:challenge:gallery').then((png) => png.toString('base64'))

/** Shows every created challenge with the fixed code rather than its own. */
async function showFixedCode(page: Page): Promise<void> {
  const image = await FIXED_CODE
  await page.route('**/v1/entity/challenges', async (route) => {
    if (route.request().method() != 'POST') return route.fallback()
    try {
      const response = await route.fetch()
      const challenge = await response.json()
      for (const kind of Object.keys(challenge.authImagesData ?? {})) challenge.authImagesData[kind] = image
      await route.fulfill({ response, json: challenge })
    } catch {
      // The test ended with this request still in flight (a held create): nothing to show it to.
    }
  })
}

/** Never answers: whatever matches stays in flight until the page goes. */
const hold = (page: Page, url: string) => page.route(url, (_route: Route) => {})

/**
 * Opens a fixture page (with `params`) and brings its widget into `state`. The clock is paused
 * at a fixed time, so a shown countdown reads the full lifetime of the code (02:00); resume it
 * before anything that waits on page timers (axe does).
 */
export async function showState(page: Page, service: Service, state: VisibleState, params: Record<string, string> = {}): Promise<void> {
  await service.configure({ challengeTtlMs: 120_000 })
  await showFixedCode(page)
  // Paused a minute on from the install: a clock can only be paused ahead of where it is.
  await page.clock.install({ time: new Date('2026-11-21T09:59:00Z') })
  await page.clock.pauseAt(new Date('2026-11-21T10:00:00Z'))
  // Held at the service until the test is over: the code is asked for and never arrives.
  if (state == 'loading') await service.hold({ match: 'create' })
  if (state == 'error') await service.fail({ status: 403, match: 'create' })
  await page.goto(fixture(params))

  const status = widget(page).getByRole('status')
  switch (state) {
    case 'loading':
      // A starting widget says "Loading…" once its code is a moment late: past that (300 ms in
      // the embed), once the request has reached the service, which holds it.
      await expect.poll(async () => (await service.creations()).length).toBe(1)
      await page.clock.runFor(1000)
      await expect(status).not.toHaveText('')
      break
    case 'error':
      await expect(widget(page).getByRole('button')).toBeVisible()
      break
    case 'ready':
      await shownChallenge(page)
      await expect(widget(page).getByRole('img')).toBeVisible()
      break
    case 'signing': {
      await hold(page, '**/auth/controller**')
      await service.sign(await shownChallenge(page))
      // Just enough time for the first poll to start; it finds the code signed.
      await page.clock.runFor(1)
      break
    }
    case 'reconnecting':
      await shownChallenge(page)
      await service.fail({ status: 503, count: 100, match: 'status' })
      await page.clock.runFor(1)
      break
    case 'expired': {
      // Unattended for more than 5 minutes, then the code expires: the widget stops refreshing.
      await page.clock.resume()
      await service.expireChallenge(await shownChallenge(page))
      await expect.poll(() => readyIds(page)).toHaveLength(2)
      await page.clock.fastForward('05:01')
      await service.expireChallenge((await readyIds(page))[1])
      break
    }
  }
  await expect(frame(page)).toHaveAttribute('data-state', state)
}
