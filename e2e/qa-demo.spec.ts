// The QA demo: each button of the login page's QA panel does what it says, as the widget shows
// it, and each widget set-up linked from the index works, up to a sign-in.
import type { Page } from '@playwright/test'
import { eventTypes, expect, gapsBetween, readyIds, requestStarts, shownChallenge, test, widget } from './fixtures.js'
import { frame } from './states.js'
// The language packs as the package publishes them: each a script that adds its pack to a
// global (ServiceAuthTexts), imported for that; the page loads the same files.
import 'service-auth/languages/es.js'
import 'service-auth/languages/fr.js'
import 'service-auth/languages/it.js'
import 'service-auth/languages/nl.js'
import 'service-auth/languages/pl.js'
import 'service-auth/languages/ar.js'
import 'service-auth/languages/ja.js'

const { es: spanish, fr: french, it: italian, nl: dutch, pl: polish, ar: arabic, ja: japanese } = globalThis.ServiceAuthTexts!

const qaPanel = (page: Page) => page.getByRole('region', { name: 'QA panel' })
const press = (page: Page, name: string) => qaPanel(page).getByRole('button', { name, exact: true }).click()
const errorsOf = async (page: Page) =>
  (await page.evaluate(() => (window as any).__events)).filter((e: any) => e.type === 'service-auth:error').map((e: any) => e.detail)

test.describe('the QA panel', () => {
  // `service` first: it resets the service, which must not forget the code the page shows.
  test.beforeEach(async ({ service: _reset, page }) => {
    await page.goto('/login')
    await shownChallenge(page)
    await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
  })

  // The widget's next two polls wait at the service until the test lets them go: the second one
  // keeps the widget reconnecting for as long as the test looks, which a second or two of backoff
  // on a busy machine would not.
  test('"Fail: 500": the widget reconnects with the code still shown, then carries on', async ({ page, service }) => {
    await service.hold({ match: 'status', count: 2 })
    await service.untilHeld('status')
    await press(page, 'Fail: 500')
    await expect(qaPanel(page).getByRole('status')).toHaveText('The next 2 requests to the service get a 500.')
    await service.release()
    await service.untilHeld('status')
    await expect(widget(page).getByRole('status')).toHaveText('Reconnecting…')
    await expect(widget(page).getByRole('img')).toBeVisible()
    await service.release()
    await expect(widget(page).getByRole('status')).toHaveText('Scan with the app', { timeout: 15_000 })
    expect(await errorsOf(page)).toEqual([
      expect.objectContaining({ reason: 'service', status: 500 }),
      expect.objectContaining({ reason: 'service', status: 500 }),
    ])
  })

  test('"Rate-limit: 429": the widget reconnects no sooner than Retry-After says', async ({ page, service }) => {
    await service.hold({ match: 'status', count: 2 })
    await service.untilHeld('status')
    await press(page, 'Rate-limit: 429')
    await expect(qaPanel(page).getByRole('status')).toHaveText('The next request to the service gets a 429 with Retry-After: 3.')
    await service.release()
    await service.untilHeld('status')
    await expect(widget(page).getByRole('status')).toHaveText('Reconnecting…')
    await service.release()
    await expect(widget(page).getByRole('status')).toHaveText('Scan with the app', { timeout: 15_000 })
    expect(await errorsOf(page)).toEqual([expect.objectContaining({ reason: 'service', status: 429, retryAfter: 3000 })])
    // Polls otherwise follow each other within about a second; the 429 made one wait 3 s.
    expect(Math.max(...gapsBetween(await requestStarts(page, '/status')))).toBeGreaterThanOrEqual(3000)
  })

  test('"Expire now": the code shown expires and a new one replaces it', async ({ page, service }) => {
    const first = await shownChallenge(page)
    await press(page, 'Expire now')
    await expect.poll(() => readyIds(page)).toHaveLength(2)
    expect(await eventTypes(page)).toEqual(['ready', 'expired', 'ready'])
    expect((await readyIds(page))[1]).not.toBe(first)
    expect((await service.challenges()).find((challenge) => challenge.id === first)?.state).toBe('expired')
    await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
  })

  test('"Slow": the widget shows it at once, a new code taking 3 s to come', async ({ page, service }) => {
    const first = await shownChallenge(page)
    // The new code, once its 3 s are up, also waits for the test: the widget stays loading while it looks.
    await service.hold({ match: 'create' })
    await press(page, 'Slow: 3 s per request')
    await expect(qaPanel(page).getByRole('status')).toHaveText('The next 5 requests to the service wait 3 s each: watch the new code take 3 s to come.')
    // No other click needed: the code shown makes way, and the slow service shows in the widget.
    await expect(widget(page).getByRole('status')).toHaveText('Loading…')
    expect(await eventTypes(page)).toEqual(['ready', 'expired'])
    await service.untilHeld('create', { timeout: 15_000 })
    await service.release()
    await expect.poll(() => readyIds(page)).toHaveLength(2)
    expect((await readyIds(page))[1]).not.toBe(first)
    await expect(widget(page).getByRole('img')).toBeVisible()
    const creation = await page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.endsWith('/v1/entity/challenges'))
          .at(-1)!.duration,
    )
    expect(creation).toBeGreaterThanOrEqual(2900)
  })

  for (const [typed, button] of [
    ['', 'Lock the identity'],
    ['   ', 'Delete the identity'],
  ]) {
    test(`"${button}" with an Identity of ${JSON.stringify(typed)} asks for a name, and sends nothing`, async ({ page }) => {
      const asked: string[] = []
      page.on('request', (request) => request.url().includes('/__app/identities') && asked.push(request.url()))
      await qaPanel(page).getByLabel('Identity').fill(typed)
      await press(page, button)
      await expect(qaPanel(page).getByRole('status')).toHaveText('Name an identity first.')
      expect(asked).toEqual([])
    })
  }

  test('"Lock the identity": the next sign-in shows "Sign-in failed" beside a fresh code', async ({ page, service }) => {
    await service.provisionPhone('user@example.com')
    await expect(qaPanel(page).getByLabel('Identity')).toHaveValue('user@example.com')
    await press(page, 'Lock the identity')
    await expect(qaPanel(page).getByRole('status')).toHaveText('user@example.com is locked: the service refuses its sign-ins (423).')
    await service.sign(await shownChallenge(page))
    await expect(widget(page).getByRole('status')).toHaveText('Sign-in failed')
    await expect.poll(() => readyIds(page)).toHaveLength(2)
    expect((await service.controllerLog()).map((call) => call.status)).toEqual([423])
  })
})

test.describe("the login page's phone panel beside the QA panel", () => {
  const phonePanel = (page: Page) => page.getByRole('region', { name: 'Phone' })
  const signWithPhone = (page: Page) => phonePanel(page).getByRole('button', { name: 'Sign with phone' })

  test('the default name signs in from a browser that did not set its phone up, though it is enrolled already', async ({ page, service }) => {
    // Another browser, cleared storage, or a later run on the kept state: the service knows the name.
    await service.provisionPhone('user@example.com')
    await page.goto('/login')
    await expect(phonePanel(page).getByLabel('Sign in as')).toHaveValue('user@example.com')
    await shownChallenge(page)
    await signWithPhone(page).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, user@example.com')
  })

  test('a name typed with spaces around it signs in as the name without them', async ({ page, service }) => {
    await page.goto('/login')
    await shownChallenge(page)
    await phonePanel(page).getByLabel('Sign in as').fill('  lk5@example.com ')
    await signWithPhone(page).click()
    await expect(page).toHaveURL(/\/welcome$/)
    expect((await service.controllerLog()).map((call) => call.claims?.sub)).toEqual(['lk5@example.com'])
  })

  test('a refused sign-in leaves neither panel holding a code: both say so and offer nothing to sign or expire', async ({ page, service: _reset }) => {
    const name = 'lk3@example.com'
    await page.goto('/login')
    await phonePanel(page).getByLabel('Sign in as').fill(name)
    await signWithPhone(page).click()
    await expect(page).toHaveURL(/\/welcome$/)

    await page.goto('/login')
    await shownChallenge(page)
    await phonePanel(page).getByLabel('Sign in as').fill(name)
    await qaPanel(page).getByLabel('Identity').fill(name)
    await press(page, 'Lock the identity')
    await expect(qaPanel(page).getByRole('status')).toHaveText(`${name} is locked: the service refuses its sign-ins (423).`)
    // Two refusals each bring a new code; the third in a row leaves the widget in its error state.
    for (const codes of [2, 3]) {
      await signWithPhone(page).click()
      await expect.poll(() => readyIds(page)).toHaveLength(codes)
    }
    await signWithPhone(page).click()
    await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
    await expect(phonePanel(page).getByRole('status')).toHaveText('The site refused the sign-in (423).')
    await expect(signWithPhone(page)).toBeDisabled()
    await expect(qaPanel(page).getByRole('button', { name: 'Expire now' })).toBeDisabled()
    expect(await readyIds(page)).toHaveLength(3)
  })
})

test.describe('the panels keep the keyboard focus where the person pressed', () => {
  test.beforeEach(async ({ service: _reset, page }) => {
    await page.goto('/login')
    await shownChallenge(page)
  })

  test('Enter on "Sign with phone" leaves the focus on it once the attempt is over', async ({ page, service }) => {
    // A name enrolled elsewhere: the attempt ends with the page still here, and the button usable again.
    await service.provisionPhone('ada@example.com')
    const panel = page.getByRole('region', { name: 'Phone' })
    await panel.getByLabel('Sign in as').fill('ada@example.com')
    const button = panel.getByRole('button', { name: 'Sign with phone' })
    await button.focus()
    await page.keyboard.press('Enter')
    await expect(panel.getByRole('status')).toContainText('ada@example.com is enrolled already')
    await expect(button).toBeEnabled()
    await expect(button).toBeFocused()
  })

  test('Enter on "Expire now" leaves the focus on it while the new code comes', async ({ page }) => {
    const button = qaPanel(page).getByRole('button', { name: 'Expire now' })
    await button.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => readyIds(page)).toHaveLength(2)
    await expect(button).toBeEnabled()
    await expect(button).toBeFocused()
  })
})

test.describe('the widget set-ups linked from the index', () => {
  /** Opens a set-up the way a person does: from the index. */
  async function openFromIndex(page: Page, link: string) {
    await page.goto('/')
    await page.getByRole('link', { name: link }).click()
    await expect(page).toHaveURL(/\/fixture\?/)
  }

  test('the code loaded from its URL', async ({ page, service, demo }) => {
    await openFromIndex(page, 'The code loaded from its URL (data-service-image-data="false")')
    const id = await shownChallenge(page)
    const img = widget(page).getByRole('img', { name: 'QR code: sign in with the app' })
    await expect(img).toHaveAttribute('src', `${demo.serviceUrl}/v1/entity/challenges/${id}/images/qrcode-standard`)
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0)
    await service.sign(id)
    await expect(page).toHaveURL(/\/welcome$/)
  })

  test('German', async ({ page, service }) => {
    await openFromIndex(page, 'German')
    await expect(widget(page).getByRole('status')).toHaveText('Mit der App scannen')
    await expect(widget(page).getByRole('img', { name: 'QR-Code: mit der App anmelden' })).toBeVisible()
    await service.sign(await shownChallenge(page))
    await expect(page).toHaveURL(/\/welcome$/)
  })

  // The other languages as a person checking the wording meets them: the status, the code's name
  // (read out, and the link's name on touch devices), the countdown, and the language they are in.
  for (const [label, code, texts] of [
    ['French', 'fr', french],
    ['Spanish', 'es', spanish],
    ['Italian', 'it', italian],
    ['Dutch', 'nl', dutch],
    ['Polish', 'pl', polish],
    ['Arabic (right to left)', 'ar', arabic],
    ['Japanese', 'ja', japanese],
  ] as const) {
    test(label, async ({ page }) => {
      await openFromIndex(page, label)
      await expect(widget(page).getByRole('status')).toHaveText(texts.ready)
      await expect(widget(page).getByRole('img', { name: texts.alt })).toBeVisible()
      await expect(widget(page).locator('.sa')).toContainText(texts.left)
      await expect(widget(page).locator('.sa')).toHaveAttribute('lang', code)
      await expect(widget(page).locator('.sa')).toHaveAttribute('dir', texts.dir ?? 'ltr')
    })
  }

  test('two widgets on one page', async ({ page, service }) => {
    await openFromIndex(page, 'Two widgets on one page')
    await expect.poll(() => readyIds(page)).toHaveLength(2)
    await expect(widget(page).getByRole('img')).toHaveCount(2)
    const [first, second] = await readyIds(page)
    expect(first).not.toBe(second)
    await service.sign(second)
    await expect(page).toHaveURL(/\/welcome$/)
  })

  test('a single-page app that adds and removes the widget', async ({ page, service }) => {
    await openFromIndex(page, 'A single-page app that adds and removes the widget')
    await expect(widget(page)).toHaveCount(0)
    await page.getByRole('button', { name: 'Add widget' }).click()
    await expect(widget(page).getByRole('img')).toBeVisible()
    await page.getByRole('button', { name: 'Remove widget' }).click()
    await expect(widget(page)).toHaveCount(0)
    await page.getByRole('button', { name: 'Add widget' }).click()
    await expect.poll(() => readyIds(page)).toHaveLength(2)
    await service.sign(await shownChallenge(page))
    await expect(page).toHaveURL(/\/welcome$/)
  })

  test('a strict Content-Security-Policy, and the script with integrity', async ({ page, service, demo }) => {
    const violations: string[] = []
    page.on('console', (message) => /Content Security Policy|Refused|integrity/i.test(message.text()) && violations.push(message.text()))
    const response = page.waitForResponse((res) => res.url().includes('/fixture?'))
    await openFromIndex(page, 'A strict Content-Security-Policy, and the script with integrity')
    // The README's policy, with this site standing in for the CDN.
    expect((await (await response).allHeaders())['content-security-policy']).toContain(`default-src 'none'; script-src ${demo.appUrl};`)
    await expect(page.locator('script[src="/service-auth.js"]')).toHaveAttribute('integrity', /^sha384-/)
    await service.sign(await shownChallenge(page))
    await expect(page).toHaveURL(/\/welcome$/)
    expect(violations).toEqual([])
  })

  test('the dark theme, pure style', async ({ page, service }) => {
    await openFromIndex(page, 'The dark theme, pure style (the code only)')
    await expect(frame(page)).toHaveCSS('border-top-width', '0px')
    await expect(widget(page).getByRole('img')).toBeVisible()
    await service.sign(await shownChallenge(page))
    await expect(page).toHaveURL(/\/welcome$/)
  })

  test.describe('on a touch device', () => {
    test.use({ hasTouch: true, isMobile: true })

    test('the code links to the app', async ({ page, service }) => {
      await openFromIndex(page, 'On a touch device, the code links to the app')
      const id = await shownChallenge(page)
      await expect(widget(page).getByRole('link')).toHaveAttribute('href', `serviceauth://challenge/${id}`)
      await service.sign(id)
      await expect(page).toHaveURL(/\/welcome$/)
    })
  })
})
