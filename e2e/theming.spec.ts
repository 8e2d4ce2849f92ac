// The look integrators choose: boxed or pure, light or dark (by the system or forced), sizes and
// colours through custom properties, and motion only for people who have not asked for less.
import type { Page } from '@playwright/test'
import QRCode from 'qrcode'
import { expect, fixture, shownChallenge, test, widget } from './fixtures.js'
import { readQr } from './qr.js'
import { frame, showState } from './states.js'

const WHITE = 'rgb(255, 255, 255)'
const DARK = 'rgb(31, 31, 36)'
const style = (page: Page, property: string) => frame(page).evaluate((el, property) => getComputedStyle(el).getPropertyValue(property), property)

test('boxed by default: a frame with the code, the caption and the countdown', async ({ page }) => {
  await page.goto(fixture())
  await shownChallenge(page)
  expect(await style(page, 'border-top-width')).toBe('1px')
  expect(await style(page, 'padding-top')).toBe('16px')
  await expect(widget(page).getByRole('status')).toBeVisible()
  await expect(widget(page).getByText(/^Expires in /)).toBeVisible()
})

test('pure shows the image only; the status is still there for screen readers', async ({ page }) => {
  await page.goto(fixture({ style: 'pure' }))
  await shownChallenge(page)
  expect(await style(page, 'border-top-width')).toBe('0px')
  expect(await style(page, 'padding-top')).toBe('0px')
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
  for (const line of [widget(page).getByRole('status'), widget(page).getByText(/^Expires in /)]) {
    await expect(line).toHaveCSS('clip-path', 'inset(50%)')
    expect((await line.boundingBox())!.height).toBeLessThanOrEqual(1)
  }
  const [img, box] = await Promise.all([widget(page).getByRole('img').boundingBox(), frame(page).boundingBox()])
  expect(box).toEqual(img)
})

for (const [scheme, background] of [
  ['light', WHITE],
  ['dark', DARK],
] as const) {
  test(`follows the system's ${scheme} scheme`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme })
    await page.goto(fixture())
    await expect(frame(page)).toHaveCSS('background-color', background)
  })
}

test('data-service-theme forces either theme, whatever the system prefers', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(fixture({ theme: 'dark' }))
  await expect(frame(page)).toHaveCSS('background-color', DARK)
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(fixture({ theme: 'light' }))
  await expect(frame(page)).toHaveCSS('background-color', WHITE)
  // A page's own switch restyles a mounted widget at once: the theme is read by the stylesheet.
  await widget(page).evaluate((el) => el.setAttribute('data-service-theme', 'dark'))
  await expect(frame(page)).toHaveCSS('background-color', DARK)
})

test('the code stays dark on white in the dark theme, so phones can read it', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(fixture())
  await shownChallenge(page)
  await expect(widget(page).getByRole('img')).toHaveCSS('background-color', WHITE)
})

// Windows high contrast paints backgrounds in the theme's colour, black in a dark one: the code's
// quiet zone, which the stylesheet draws, must stay white, or a code that comes without a margin of
// its own cannot be read.
test('the code keeps its white quiet zone in forced colours, and stays readable', async ({ page }) => {
  const png = await QRCode.toBuffer('serviceauth:challenge:no-margin', { type: 'png', width: 200, margin: 0, errorCorrectionLevel: 'M' })
  await page.route('**/v1/entity/challenges', async (route) => {
    if (route.request().method() != 'POST') return route.fallback()
    const response = await route.fetch()
    const challenge = await response.json()
    for (const kind of Object.keys(challenge.authImagesData ?? {})) challenge.authImagesData[kind] = png.toString('base64')
    await route.fulfill({ response, json: challenge })
  })
  await page.emulateMedia({ colorScheme: 'dark', forcedColors: 'active' })
  await page.goto(fixture())
  await shownChallenge(page)
  const code = widget(page).getByRole('img')
  await expect(code).toHaveCSS('background-color', WHITE)
  expect(await readQr(code)).toBe('serviceauth:challenge:no-margin')
})

test('size and colours follow the documented custom properties', async ({ page }) => {
  await page.goto(fixture())
  await shownChallenge(page)
  await widget(page).evaluate((el) => {
    el.style.setProperty('--sa-size', '120px')
    el.style.setProperty('--sa-fg', 'rgb(0, 0, 128)')
    el.style.setProperty('--sa-bg', 'rgb(255, 250, 230)')
  })
  const code = await widget(page).getByRole('img').boundingBox()
  expect([code!.width, code!.height]).toEqual([120, 120])
  await expect(frame(page)).toHaveCSS('color', 'rgb(0, 0, 128)')
  await expect(frame(page)).toHaveCSS('background-color', 'rgb(255, 250, 230)')
})

test("the placeholder keeps the code's size while loading, so the page does not jump", async ({ page, service }) => {
  // The code is asked for and never arrives: held at the service until the test is over.
  await service.hold({ match: 'create' })
  await page.goto(fixture())
  await expect(frame(page)).toHaveAttribute('data-state', 'loading')
  const placeholder = await widget(page).locator('a').boundingBox()
  expect([placeholder!.width, placeholder!.height]).toEqual([200, 200])
})

// Loading does not pulse: a running animation kept the code that arrived off the screen for a
// frame or more (bench: answer → painted).
test('the loading placeholder stands still, so the code paints as soon as it arrives', async ({ page, service }) => {
  // The code is asked for and never arrives: held at the service until the test is over.
  await service.hold({ match: 'create' })
  await page.goto(fixture())
  await expect(frame(page)).toHaveAttribute('data-state', 'loading')
  expect(
    await widget(page)
      .locator('a')
      .evaluate((el) => el.getAnimations().length),
  ).toBe(0)
})

for (const [reducedMotion, animations] of [
  ['no-preference', 1],
  ['reduce', 0],
] as const) {
  test(`signing in pulses ${animations ? 'unless' : 'not at all when'} reduced motion is asked for (${reducedMotion})`, async ({ page, service }) => {
    await page.emulateMedia({ reducedMotion })
    await showState(page, service, 'signing')
    await expect
      .poll(() =>
        widget(page)
          .locator('a')
          .evaluate((el) => el.getAnimations().length),
      )
      .toBe(animations)
  })
}
