// The demo's own pages as a person doing QA meets them: each says what it is and leads back,
// fits the screen, and answers every click with something visible.
import { SET_UPS } from 'service-auth-demo'
import { expect, fixture, shownChallenge, test } from './fixtures.js'
import { readQr } from './qr.js'

test('a mistyped address shows a page, not JSON, with a way back to every demo page', async ({ page }) => {
  const response = await page.goto('/enroll')
  expect(response!.status()).toBe(404)
  await expect(page).toHaveTitle('Page not found')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
  await page.getByRole('link', { name: 'All demo pages' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Service auth demo')
})

test.describe('the widget set-ups', () => {
  const labels = SET_UPS.map((setUp) => setUp.label)

  test('the index links each one, each under a name of its own', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('region', { name: 'Widget set-ups' }).getByRole('link')).toHaveText(labels)
    expect(new Set(labels).size).toBe(labels.length)
  })

  // A test each: a page load or two apiece, rather than a dozen in one test's time.
  for (const label of labels) {
    test(`"${label}", linked from the index, says what it is for, and leads back`, async ({ page }) => {
      await page.goto('/')
      await page.getByRole('link', { name: label, exact: true }).click()
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(label)
      await expect(page).toHaveTitle(label)
      await expect(page.getByRole('main').getByRole('paragraph').first()).not.toBeEmpty()
      await page.getByRole('link', { name: 'All demo pages' }).click()
      await expect(page).toHaveURL(/\/$/)
    })
  }

  test('a set-up built by hand names its settings', async ({ page }) => {
    await page.goto('/fixture?count=3&theme=dark')
    await expect(page).toHaveTitle('Widget set-up')
    await expect(page.getByRole('main')).toContainText('count=3')
    await expect(page.getByRole('main')).toContainText('theme=dark')
    await expect(page.getByRole('link', { name: 'All demo pages' })).toHaveAttribute('href', '/')
  })
})

for (const width of [1280, 390]) {
  test(`the enrol result fits its cards and the screen at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/enrol')
    // An address of its own per width: enrolled once, the next time it gets its code by e-mail only.
    await page.getByLabel('E-mail address').fill(`a.rather.long.address.for.a.person.${width}@subdomain.example.com`)
    await page.getByRole('button', { name: 'Enrol' }).click()
    await expect(page.getByRole('img', { name: 'Enrollment QR code' })).toBeVisible()
    // Measured once the page's stylesheet applies: the image shows without it, and on a busy
    // machine the unstyled page was measured (947 px wide), which says nothing of the layout.
    await expect(page.locator('.card').first()).toHaveCSS('overflow-wrap', 'anywhere')
    const overflowing = await page.evaluate(() =>
      [document.documentElement, ...document.querySelectorAll('.card, .card *')]
        .filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX === 'visible')
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}: ${element.scrollWidth} > ${element.clientWidth}`),
    )
    expect(overflowing).toEqual([])
    // Nothing to scroll sideways to.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
  })
}

test('dates read the same everywhere: the enrol page, the e-mail, and the phone page', async ({ page, context, service }) => {
  await page.goto('/enrol')
  await page.getByLabel('E-mail address').fill('ada@example.com')
  await page.getByRole('button', { name: 'Enrol' }).click()
  const until = (await page.locator('time').textContent())!
  // A new address (the service was reset for this test): its code on the page, and in its e-mail.
  expect((await service.outbox()).map((message) => message.to)).toEqual(['ada@example.com'])
  // The e-mail the service composed gives the same expiry, in the same words.
  await expect(page.getByRole('region', { name: 'The e-mail that would have been sent' })).toContainText(`until ${until}.`)

  const phone = await context.newPage()
  await phone.goto('/phone')
  // A new address's code is on the enrol page, and in the e-mail the service sent it.
  await expect(phone.getByRole('list', { name: 'Enrollment codes in e-mails' })).toContainText(
    `E-mailed to ada@example.com: Enrollment for ada@example.com, until ${until}`,
  )
})

test('signing out says so, and the session is over', async ({ page, service }) => {
  await page.goto(fixture())
  await service.sign(await shownChallenge(page))
  await expect(page).toHaveURL(/\/welcome$/)
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByText('You have signed out.')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in')
  await page.goto('/welcome')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not signed in')
})

test('the phone page lists only sign-in codes on a page still open', async ({ page, context }) => {
  test.setTimeout(60_000)
  await page.goto(fixture())
  const open = await shownChallenge(page)
  const other = await context.newPage()
  await other.goto(fixture())
  const closed = await shownChallenge(other)

  const phone = await context.newPage()
  await phone.goto('/phone')
  const codes = phone.getByRole('list', { name: 'Sign-in codes' })
  await expect(codes).toContainText(open)
  await expect(codes).toContainText(closed)

  // The closed page's code is still pending at the service for two minutes, but no screen shows it.
  await other.close()
  await expect
    .poll(
      async () => {
        await phone.getByRole('button', { name: 'Look again' }).click()
        return codes.textContent()
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .not.toContain(closed)
  await expect(codes).toContainText(open)
})

test.describe('adding a phone to an identity that has one: only its owner gets the code', () => {
  test('typed on /enrol by anyone, an enrolled address gets no code on screen: it goes to that address, and the phone page lists it as e-mailed', async ({
    page,
    context,
    service,
  }) => {
    await page.goto('/enrol')
    await page.getByLabel('E-mail address').fill('bea@example.com')
    await page.getByRole('button', { name: 'Enrol' }).click()
    await expect(page.getByRole('img', { name: 'Enrollment QR code' })).toBeVisible()

    await page.goto('/enrol')
    await page.getByLabel('E-mail address').fill('bea@example.com')
    await page.getByRole('button', { name: 'Enrol' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your e-mail')
    await expect(page.getByRole('main')).toContainText(
      'bea@example.com is enrolled already. We have sent a code to add another phone to that address; it is not shown here',
    )
    await expect(page.getByRole('img')).toHaveCount(0)
    const mailed = (await service.outbox()).filter((message) => message.to === 'bea@example.com')
    expect(mailed).toHaveLength(2)
    expect(await page.content()).not.toContain(mailed[1]!.enrollmentId)

    const phone = await context.newPage()
    await phone.goto('/phone')
    const listed = phone
      .getByRole('list', { name: 'Enrollment codes in e-mails' })
      .getByRole('listitem')
      .filter({ hasText: 'E-mailed to bea@example.com: Enrollment for bea@example.com' })
    await expect(listed).toHaveCount(2)
    await expect(phone.getByRole('list', { name: 'Enrollment codes on screens' })).not.toContainText('bea@example.com')
  })

  test("the login page's phone panel, for a name enrolled already, leaves a code the phone page lists under that address, even once the identity is gone", async ({
    page,
    context,
    service,
  }) => {
    await service.provisionPhone('ada@example.com')
    await page.goto('/login')
    const panel = page.getByRole('region', { name: 'Phone' })
    await panel.getByLabel('Sign in as').fill('ada@example.com')
    await panel.getByRole('button', { name: 'Sign with phone' }).click()
    await expect(panel.getByRole('status')).toContainText('ada@example.com is enrolled already')
    // Its identity gone from the service (deleted, or evicted), the pending code's e-mail still names the address.
    const qa = page.getByRole('region', { name: 'QA panel' })
    await qa.getByLabel('Identity').fill('ada@example.com')
    await qa.getByRole('button', { name: 'Delete the identity' }).click()
    await expect(qa.getByRole('status')).toHaveText('ada@example.com is deleted at the service.')

    const phone = await context.newPage()
    await phone.goto('/phone')
    await expect(phone.getByRole('list', { name: 'Enrollment codes in e-mails' })).toContainText(
      'E-mailed to ada@example.com: Enrollment for ada@example.com, until',
    )
  })

  test('signed in, the person adds another phone from the welcome page, and its code is on screen', async ({ page, context, service }) => {
    await service.provisionPhone('ada@example.com')
    await page.goto(fixture())
    await service.sign(await shownChallenge(page), 'ada@example.com')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, ada@example.com')

    await page.getByRole('button', { name: 'Add a phone' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Scan this code with the app')
    const code = await readQr(page.getByRole('img', { name: 'Enrollment QR code' }))
    const phone = await context.newPage()
    await phone.goto('/phone')
    await phone.getByLabel('What the camera read').fill(code)
    await phone.getByRole('button', { name: 'Set up this phone' }).click()
    await expect(phone.getByRole('status')).toHaveText('This phone now signs in as ada@example.com.')
  })

  test("the login page's phone panel, for a name enrolled already, says the code went to that address", async ({ page, service }) => {
    await service.provisionPhone('ada@example.com')
    await page.goto('/login')
    const panel = page.getByRole('region', { name: 'Phone' })
    await panel.getByLabel('Sign in as').fill('ada@example.com')
    await panel.getByRole('button', { name: 'Sign with phone' }).click()
    await expect(panel.getByRole('status')).toHaveText(
      'ada@example.com is enrolled already, so the site sent its code to that address, not here: set the phone up from the e-mail on the phone page, or sign in as ada@example.com and add a phone.',
    )
    await expect(page).toHaveURL(/\/login$/)
  })
})
