// What a person using a keyboard or a screen reader meets: axe finds nothing in any state, in
// either theme; the button is reachable and keeps focus in the widget; the live status speaks
// when the state changes, never every second with the countdown.
import AxeBuilder from '@axe-core/playwright'
import { expect, fixture, shownChallenge, test, widget } from './fixtures.js'
import { STATES, frame, showState } from './states.js'

for (const colorScheme of ['light', 'dark'] as const) {
  for (const state of STATES) {
    test(`axe reports no violations while ${state}, ${colorScheme}`, async ({ page, service }) => {
      // Reduced motion: the signing pulse (the code's opacity, which axe does not judge) would keep
      // the page repainting while axe reads it, which on a busy machine doubled axe's time.
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await showState(page, service, state)
      await page.clock.resume()
      // Legacy mode runs axe in this page alone. By default it also opens a blank page and loads
      // itself again there to merge the results of frames, which this widget does not have: that
      // doubled the work, and on a busy machine outran the test's time.
      const { violations } = await new AxeBuilder({ page }).include('[data-service-auth]').setLegacyMode().analyze()
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
    })
  }
}

// A language of another script, and one written right to left: valid lang and dir, contrast kept.
for (const lang of ['ar', 'ja']) {
  test(`axe reports no violations in ${lang}`, async ({ page, service }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await showState(page, service, 'ready', { lang })
    await page.clock.resume()
    await expect(frame(page)).toHaveAttribute('lang', lang)
    const { violations } = await new AxeBuilder({ page }).include('[data-service-auth]').setLegacyMode().analyze()
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
  })
}

test('the code has a meaningful alt text, in the page language', async ({ page }) => {
  await page.goto(fixture({ lang: 'de' }))
  await expect(widget(page).getByRole('img', { name: 'QR-Code: mit der App anmelden' })).toBeVisible()
})

test('"Try again" is reachable by keyboard, and focus stays in the widget once the button goes', async ({ page, service }) => {
  await showState(page, service, 'error')
  await page.clock.resume()
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  await page.keyboard.press('Tab')
  await expect(widget(page).getByRole('button', { name: 'Try again' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(widget(page).getByRole('img')).toBeVisible()
  await expect(widget(page).getByRole('button')).toBeHidden()
  await expect(frame(page)).toBeFocused()
})

// A live region that arrives with its text in it is found by a screen reader, not announced: the
// status is in place, empty, while the first code is asked for, and the same element then says it.
test('the first code is announced: the live status is there, empty, before it comes', async ({ page, service }) => {
  // The clock stands still, so that "Loading…", which a code late by 300 ms says, never comes.
  await page.clock.install({ time: new Date('2026-11-21T09:59:00Z') })
  await page.clock.pauseAt(new Date('2026-11-21T10:00:00Z'))
  await service.hold({ match: 'create' })
  await page.goto(fixture())
  await service.untilHeld('create')
  const status = widget(page).getByRole('status')
  await expect(status).toHaveText('')
  await status.evaluate((region) => region.setAttribute('data-test-was-there', ''))
  await service.release()
  // The code is painted first, and said in the task after that frame: the clock moves on by a
  // few frames once it is there (its "Loading…" timer went as it came).
  await expect(widget(page).getByRole('img')).toBeVisible()
  await page.clock.runFor(100)
  await expect(status).toHaveText('Scan with the app')
  await expect(status).toHaveAttribute('data-test-was-there')
})

test('the live status changes with the state, not with the countdown', async ({ page }) => {
  await page.clock.install()
  await page.goto(fixture())
  await shownChallenge(page)
  const status = widget(page).getByRole('status')
  await expect(status).toHaveText('Scan with the app')
  const countdown = widget(page).getByText(/^Expires in /)
  const before = await countdown.textContent()
  await page.evaluate(() => {
    const live = document.querySelector('[data-service-auth] [role=status]')!
    ;(window as any).__announced = 0
    new MutationObserver((records) => ((window as any).__announced += records.length)).observe(live, {
      subtree: true,
      childList: true,
      characterData: true,
    })
  })
  await page.clock.runFor(5_000)
  await expect(countdown).not.toHaveText(before!)
  expect(await page.evaluate(() => (window as any).__announced)).toBe(0)
  // Nothing that ticks sits inside a live region.
  expect(await countdown.evaluate((node) => !!node.closest('[aria-live], [role=status], [role=alert], [role=log]'))).toBe(false)
})

/** WCAG's contrast ratio of two CSS colours as computed (`rgb(r, g, b)`). */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = color
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((c) => {
        const s = Number(c) / 255
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      })
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  }
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

for (const theme of ['light', 'dark']) {
  test(`the frame's border has 3:1 contrast against its background (non-text contrast), ${theme}`, async ({ page }) => {
    await page.goto(fixture({ theme }))
    await shownChallenge(page)
    const { border, background } = await page.locator('.sa').evaluate((el) => {
      const style = getComputedStyle(el)
      return { border: style.borderTopColor, background: style.backgroundColor }
    })
    expect(contrast(border, background)).toBeGreaterThanOrEqual(3)
  })
}
