// The demo's own pages as a person doing QA meets them: each says what it is and leads back,
// fits the screen, and answers every click with something visible.
import { expect, test } from './fixtures.ts'

test('a mistyped address shows a page, not JSON, with a way back to every demo page', async ({ page }) => {
  const response = await page.goto('/enroll')
  expect(response!.status()).toBe(404)
  await expect(page).toHaveTitle('Page not found')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
  await page.getByRole('link', { name: 'All demo pages' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Service auth demo')
})
