// The widget keeps one box through every state, so the page around it never jumps: each state's
// page is watched by a `layout-shift` PerformanceObserver from its first paint, with a line of
// text just below the widget for any growth to push.
import type { Page } from '@playwright/test'
import { expect, fixture, shownChallenge, test, widget } from './fixtures.js'
import { STATES, frame, showState } from './states.js'

/** Installed before any page script: every layout shift, and a line of text below the widget. */
const watchShifts = (page: Page) =>
  page.addInitScript(() => {
    const shifts: number[] = ((window as any).__shifts = [])
    // All of them, input or not: a jump after a click is still a jump.
    const record = (entries: PerformanceEntryList) => entries.forEach((entry) => shifts.push((entry as any).value))
    const observer = new PerformanceObserver((list) => record(list.getEntries()))
    observer.observe({ type: 'layout-shift', buffered: true })
    // Entries not yet delivered, too: the clock may be paused, and the callback with it.
    ;(window as any).__takeShifts = () => (record(observer.takeRecords()), shifts)
    // In place as the parser inserts the widget's element, before anything is painted: put in
    // later, the line itself would push what follows.
    const parsing = new MutationObserver(() => {
      const host = document.querySelector('[data-service-auth]')
      if (!host) return
      parsing.disconnect()
      const below = document.createElement('p')
      below.id = 'below'
      below.textContent = 'The page goes on below the widget.'
      host.after(below)
    })
    parsing.observe(document, { childList: true, subtree: true })
  })

/** Every shift so far, after a fresh frame (a screenshot makes one, even with the clock paused). */
const shifts = async (page: Page): Promise<number[]> => {
  await page.screenshot()
  return page.evaluate(() => (window as any).__takeShifts())
}
const box = async (page: Page) => {
  const { width, height } = (await frame(page).boundingBox())!
  return { width, height }
}

/**
 * The box the stylesheet sets out for the widget, whatever it shows: an empty frame's, as its
 * rows have fixed heights. Each state is held to it, so all of them have the same box.
 */
const boxOfTheStylesheet = (page: Page) =>
  page.evaluate(() => {
    const probe = document.body.appendChild(document.createElement('div'))
    probe.className = 'sa'
    const { width, height } = probe.getBoundingClientRect()
    probe.remove()
    return { width, height }
  })

// A test per state, each on a fresh page and service, as a person meeting the state would have.
for (const state of STATES) {
  test(`${state}: the box is the one every state has, and nothing shifts the page`, async ({ page, service }) => {
    await watchShifts(page)
    await showState(page, service, state)
    await expect(page.locator('#below')).toBeVisible()
    expect(await shifts(page)).toEqual([])
    expect(await box(page)).toEqual(await boxOfTheStylesheet(page))
  })
}

test('"Signed in" keeps the box too, when the page takes over after sign-in', async ({ page, service }) => {
  await watchShifts(page)
  await page.addInitScript(() => addEventListener('service-auth:success', (event) => event.preventDefault()))
  await page.goto(fixture())
  const ready = await box(page)
  await service.sign(await shownChallenge(page))
  await expect(widget(page).getByRole('status')).toHaveText('Signed in')
  expect(await box(page)).toEqual(ready)
  expect(await shifts(page)).toEqual([])
})

for (const style of ['boxed', 'pure']) {
  test(`before the script runs, the element already holds the widget's place (${style})`, async ({ page }) => {
    const host = page.locator('[data-service-auth]')
    await page.route('**/service-auth.js', (route) => route.abort())
    await page.goto(fixture({ style }))
    const reserved = (await host.boundingBox())!.height
    await page.unroute('**/service-auth.js')
    await page.goto(fixture({ style }))
    await expect(page.locator('.sa')).toBeVisible()
    expect((await host.boundingBox())!.height).toBe(reserved)
  })
}
