// Playwright turns the back/forward cache off by default; this file turns it back on, so the
// restore is real rather than a fresh load.
import { chromiumLaunchOptions } from './chromium.js'
import { expect, fixture, readyIds, shownChallenge, test, widget } from './fixtures.js'

test.use({ launchOptions: { ...chromiumLaunchOptions(), ignoreDefaultArgs: ['--disable-back-forward-cache'] } })

test('a page restored from the back/forward cache shows a fresh code; the consumed one is never polled again', async ({ page, service }) => {
  await page.goto(fixture())
  await page.evaluate(() => addEventListener('pageshow', (event) => ((window as any).restored = event.persisted)))
  const consumed = await shownChallenge(page)
  await service.sign(consumed)
  await expect(page).toHaveURL(/\/welcome$/)
  const pollsBefore = (await service.polls(consumed)).length

  // A restore fires pageshow, not load: wait only for the navigation to commit.
  await page.goBack({ waitUntil: 'commit' })
  await expect(page).toHaveURL(/\/fixture/)
  expect(await page.evaluate(() => (window as any).restored)).toBe(true)
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  const fresh = (await readyIds(page))[1]
  expect(fresh).not.toBe(consumed)
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
  await expect.poll(async () => (await service.polls(fresh)).length).toBeGreaterThan(0)
  expect(await service.polls(consumed)).toHaveLength(pollsBefore)
})
