// Each state in both themes, as a person sees it. The images are the README's gallery
// (docs/gallery/) and the visual regression baseline at once: an unexpected change to the
// look fails here. After an intended change: npx playwright test e2e/gallery.spec.ts --update-snapshots
import { expect, test } from './fixtures.js'
import { STATES, frame, showState } from './states.js'

for (const colorScheme of ['light', 'dark'] as const) {
  for (const state of STATES) {
    test(`${state}, ${colorScheme}`, async ({ page, service }) => {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await showState(page, service, state)
      await expect(frame(page)).toHaveScreenshot(`${state}-${colorScheme}.png`)
    })
  }

  test(`pure style, ${colorScheme}`, async ({ page, service }) => {
    await page.emulateMedia({ colorScheme })
    await showState(page, service, 'ready', { style: 'pure' })
    await expect(frame(page)).toHaveScreenshot(`pure-${colorScheme}.png`)
  })
}

test('German, light', async ({ page, service }) => {
  await showState(page, service, 'ready', { lang: 'de' })
  await expect(frame(page)).toHaveScreenshot('ready-de.png')
})

// Right to left, and CJK: a page in Arabic or Japanese, with no locale set, and every pack loaded.
for (const [lang, label] of [
  ['ar', 'Arabic'],
  ['ja', 'Japanese'],
] as const) {
  test(`${label}, light`, async ({ page, service }) => {
    await showState(page, service, 'ready', { lang })
    await expect(frame(page)).toHaveScreenshot(`ready-${lang}.png`)
  })
}
