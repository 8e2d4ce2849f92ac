// On a phone or tablet the code cannot be scanned from the screen showing it, so it becomes a
// link that opens the app for this challenge (data-service-app-url, `{id}` for its id).
import { expect, fixture, readyIds, shownChallenge, test, widget } from './fixtures.js'

const APP_URL = 'serviceauth://challenge/{id}'
const NAME = 'QR code: sign in with the app'

test.describe('on a touch device', () => {
  test.use({ hasTouch: true, isMobile: true })

  test('the code links to the app for this challenge, and the link follows each new code', async ({ page, service }) => {
    await page.goto(fixture({ 'app-url': APP_URL }))
    const first = await shownChallenge(page)
    const link = widget(page).getByRole('link', { name: NAME })
    await expect(link).toHaveAttribute('href', `serviceauth://challenge/${first}`)
    await expect(link.getByRole('img')).toBeVisible()

    await service.expireChallenge(first)
    await expect.poll(() => readyIds(page)).toHaveLength(2)
    const second = (await readyIds(page))[1]
    await expect(link).toHaveAttribute('href', `serviceauth://challenge/${second}`)
  })

  test('says to tap the code, in English and in German, not to scan it', async ({ page }) => {
    await page.goto(fixture({ 'app-url': APP_URL }))
    await shownChallenge(page)
    await expect(widget(page).getByRole('status')).toHaveText('Tap to open the app')
    await page.goto(fixture({ 'app-url': APP_URL, lang: 'de' }))
    await shownChallenge(page)
    await expect(widget(page).getByRole('status')).toHaveText('Tippen, um die App zu öffnen')
  })

  test('is reachable by keyboard', async ({ page }) => {
    await page.goto(fixture({ 'app-url': 'https://app.example/challenge/{id}' }))
    await shownChallenge(page)
    await page.keyboard.press('Tab')
    await expect(widget(page).getByRole('link', { name: NAME })).toBeFocused()
  })

  test('a code being signed in is no longer a link', async ({ page, service }) => {
    await page.route('**/auth/controller**', () => {})
    await page.goto(fixture({ 'app-url': APP_URL }))
    await service.sign(await shownChallenge(page))
    await expect(widget(page).getByRole('status')).toHaveText('Signing in…')
    await expect(widget(page).getByRole('link')).toHaveCount(0)
  })

  // The link goes while a late code loads, and while one is signed in: focus on it stays in the
  // widget, where the next code's link is a Tab away, rather than falling back to the page's top.
  test('focus on the link stays in the widget when the link goes', async ({ page, service }) => {
    await page.route('**/auth/controller**', () => {})
    await page.goto(fixture({ 'app-url': APP_URL }))
    const first = await shownChallenge(page)
    const link = widget(page).getByRole('link', { name: NAME })
    await page.keyboard.press('Tab')
    await expect(link).toBeFocused()
    // A new code that is late: "Loading…", and no link meanwhile.
    await service.hold({ match: 'create' })
    await service.expireChallenge(first)
    await expect(widget(page).getByRole('status')).toHaveText('Loading…')
    await expect(page.locator('.sa')).toBeFocused()
    await service.release()
    await expect(link).toBeVisible()
    await page.keyboard.press('Tab')
    await expect(link).toBeFocused()
    await service.sign((await readyIds(page)).at(-1)!)
    await expect(widget(page).getByRole('status')).toHaveText('Signing in…')
    await expect(page.locator('.sa')).toBeFocused()
  })

  test('without data-service-app-url there is no link', async ({ page }) => {
    await page.goto(fixture())
    await shownChallenge(page)
    await expect(widget(page).getByRole('link')).toHaveCount(0)
  })

  for (const bad of ['javascript:alert(1)', 'JavaScript:alert(document.domain)//{id}', 'data:text/html,<script>alert(1)</script>']) {
    test(`an app URL that could run script (${bad}) is refused by name`, async ({ page, service }) => {
      const messages: string[] = []
      page.on('console', (message) => message.type() === 'error' && messages.push(message.text()))
      await page.goto(fixture({ 'app-url': bad }))
      await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
      expect(messages).toEqual(['service-auth: data-service-app-url is missing or invalid'])
      await expect(widget(page).getByRole('link')).toHaveCount(0)
      expect(await service.creations()).toHaveLength(0)
    })
  }
})

test('with a mouse the code is only an image, to be scanned from the screen', async ({ page }) => {
  await page.goto(fixture({ 'app-url': APP_URL }))
  await shownChallenge(page)
  await expect(widget(page).getByRole('img', { name: NAME })).toBeVisible()
  await expect(widget(page).getByRole('link')).toHaveCount(0)
})
