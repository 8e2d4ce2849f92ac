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

/** WCAG 1.4.12's text spacing, as a reader's own stylesheet (or the usual bookmarklet) sets it. */
const TEXT_SPACING = '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important } p { margin-bottom: 2em !important }'

/** Each shown part of the widget whose text or box overlaps another's, or leaves the frame. */
const collisions = (page: Page) =>
  frame(page).evaluate((root) => {
    const parts = [...root.querySelectorAll<HTMLElement>('a, p, button')].filter(
      (el) => (el.localName == 'a' || el.textContent) && el.checkVisibility({ visibilityProperty: true }),
    )
    // A text's own extent, which may run out of its element's box.
    const extent = (el: HTMLElement) => {
      if (el.localName == 'a') return el.getBoundingClientRect()
      const range = document.createRange()
      range.selectNodeContents(el)
      return range.getBoundingClientRect()
    }
    const name = (el: HTMLElement) => `${el.localName} "${el.textContent}"`
    const found: string[] = []
    const outer = root.getBoundingClientRect()
    parts.forEach((el, i) => {
      const box = extent(el)
      if (box.top < outer.top || box.bottom > outer.bottom) found.push(`${name(el)} leaves the frame`)
      for (const other of parts.slice(i + 1)) {
        const next = extent(other)
        if (box.bottom > next.top + 0.5 && next.bottom > box.top + 0.5) found.push(`${name(el)} overlaps ${name(other)}`)
      }
    })
    return found
  })

// A reader's wider spacing may need a third line: the text takes it, rather than running over the
// code or the button (the box grows then, as it must; at the usual spacing it is the box above).
for (const lang of ['de', 'fi', 'ga']) {
  test(`with the reader's own text spacing (WCAG 1.4.12), no text runs over the code or another text (${lang})`, async ({ page, service }) => {
    for (const state of ['error', 'expired', 'reconnecting'] as const) {
      await showState(page, service, state, { lang })
      await page.addStyleTag({ content: TEXT_SPACING })
      expect(await collisions(page), state).toEqual([])
    }
  })
}

// WCAG 1.4.10: at 320 CSS px (a phone, or 400 % zoom) nothing scrolls sideways. A large
// --sa-size does not fit there; sized with min() as the README says, it does.
test('a large --sa-size fits a 320 px viewport when sized with min(), as the README says', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 })
  await page.goto(fixture())
  await shownChallenge(page)
  const host = page.locator('[data-service-auth]')
  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth > innerWidth)
  await host.evaluate((el: HTMLElement) => el.style.setProperty('--sa-size', '300px'))
  await expect.poll(sideways).toBe(true)
  await host.evaluate((el: HTMLElement) => el.style.setProperty('--sa-size', 'min(300px, 100vw - 64px)'))
  await expect.poll(sideways).toBe(false)
  await expect(widget(page).getByRole('img')).toBeVisible()
})
