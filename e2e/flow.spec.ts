// One test per rule of the sign-in flow: what the user sees and what the controller receives.
import type { Page } from '@playwright/test'
import { fingerprint } from '@service-auth/http'
import { eventTypes, expect, fixture, gapsBetween, readyIds, requestStarts, shownChallenge, test, widget, type Service } from './fixtures.js'

test('creates the challenge without credentials: JSON {key, returnAuthImageData} and no Authorization header', async ({ page, service, demo }) => {
  await page.goto(fixture())
  await shownChallenge(page)
  const [create] = await service.creations()
  expect(create.authorization).toBeNull()
  expect(create.contentType).toBe('application/json')
  expect(JSON.parse(create.body)).toEqual({ key: demo.apiKey, returnAuthImageData: true })
})

test('a hostile or malformed 2xx is refused, shown as reconnecting, and recovered from', async ({ page, service }) => {
  await service.fail({ status: 200, match: 'create', body: '{"id": {"no": 1}, "pollingUrl": "javascript:alert(1)"}', contentType: 'application/json' })
  await service.fail({ status: 201, match: 'create', body: '<html>not json</html>', contentType: 'text/html' })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const consoleErrors: string[] = []
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
  // The page's clock stands still: each backoff lasts until the test moves it on, so the widget
  // says it is reconnecting for as long as the test looks.
  await page.clock.install({ time: new Date('2026-11-21T09:59:00Z') })
  await page.clock.pauseAt(new Date('2026-11-21T10:00:00Z'))
  await page.goto(fixture())
  const status = widget(page).getByRole('status')
  await expect(status).toHaveText('Reconnecting…')
  // The first backoff is 1 s at most; the second answer is bad too.
  await page.clock.runFor(1000)
  await expect.poll(async () => (await service.creations()).length).toBe(2)
  await expect(status).toHaveText('Reconnecting…')
  await page.clock.runFor(2000)
  await expect(widget(page).getByRole('img')).toBeVisible()
  expect(await service.creations()).toHaveLength(3)
  expect(errors).toEqual([])
  expect((await page.evaluate(() => (window as any).__events)).filter((e: any) => e.type === 'service-auth:error').map((e: any) => e.detail.reason)).toEqual([
    'response',
    'response',
  ])
  // Each says which field was of no use: the first the service's checks find wanting.
  expect(consoleErrors).toEqual(["service-auth: the service's id is missing or invalid (200).", "service-auth: the service's id is missing or invalid (201)."])
})

test('shows inline image data by default, and the image URL with data-service-image-data="false"', async ({ page, service, demo }) => {
  await page.goto(fixture())
  await expect(widget(page).getByRole('img', { name: 'QR code: sign in with the app' })).toHaveAttribute('src', /^data:image\/png;base64,iVBOR/)

  await page.goto(fixture({ 'image-data': 'false', image: 'qrcode-extended' }))
  const id = await shownChallenge(page)
  const img = widget(page).getByRole('img', { name: 'QR code: sign in with the app' })
  await expect(img).toHaveAttribute('src', `${demo.serviceUrl}/v1/entity/challenges/${id}/images/qrcode-extended`)
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0)
  expect(JSON.parse((await service.creations()).at(-1)!.body).returnAuthImageData).toBe(false)
})

test('polls again after each 204 but never starts polls more often than once per second', async ({ page, service }) => {
  // A service (or proxy) that answers at once instead of holding the poll.
  await service.configure({ holdMs: 0 })
  await page.goto(fixture())
  const id = await shownChallenge(page)
  await expect.poll(async () => (await service.polls(id)).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(5)
  const starts = await requestStarts(page, '/status')
  expect(starts.length).toBeGreaterThanOrEqual(5)
  const gaps = gapsBetween(starts)
  // The floor counts from when the widget decides to poll; the request's own start follows by a
  // few ms on a busy machine, so a gap may read a little under 1000 (a hot loop reads near 0).
  for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(980)
})

test('a held poll answers at once when the phone signs, and sign-in follows', async ({ page, service }) => {
  // Polls are held for a minute, far longer than the test waits for anything: the first one is
  // surely in flight when the phone signs, and no second one starts before it answers.
  await service.configure({ holdMs: 60_000 })
  await page.goto(fixture())
  const id = await shownChallenge(page)
  await expect.poll(async () => (await service.polls(id)).length).toBe(1)
  await service.sign(id)
  await expect(page).toHaveURL(/\/welcome$/)
  // The held poll carried the token: it was the only one.
  expect(await service.polls(id)).toHaveLength(1)
})

test('refuses a controller on another origin: one console error naming the attribute, a visible error, no request', async ({ page, service, demo }) => {
  const messages: string[] = []
  page.on('console', (message) => message.type() === 'error' && messages.push(message.text()))
  const otherOrigin = demo.appUrl.replace('127.0.0.1', 'localhost') + '/auth/controller'
  await page.goto(fixture({ 'auth-url': otherOrigin }))
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  expect(messages).toEqual([expect.stringContaining('data-service-auth-url')])
  expect(await service.creations()).toHaveLength(0)
})

test('the token never reaches a URL, storage or the console', async ({ page, service }) => {
  const urls: string[] = []
  const logs: string[] = []
  page.on('request', (request) => urls.push(request.url()))
  page.on('console', (message) => logs.push(message.text()))
  await page.goto(fixture({ 'auth-url': '/auth/controller?mode=deny' }))
  const token = await service.sign(await shownChallenge(page))
  await expect.poll(async () => (await service.controllerLog()).length).toBe(1)
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in failed')
  const storage = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]))
  for (const place of [...urls, ...logs, storage]) expect(place).not.toContain(token)
  expect((await service.controllerLog())[0].headers['x-service-auth']).toBe(fingerprint(token))
})

test('the Authorization header name carries the token as a Bearer credential', async ({ page, service }) => {
  await page.goto(fixture({ header: 'Authorization' }))
  const token = await service.sign(await shownChallenge(page))
  await expect(page).toHaveURL(/\/welcome$/)
  expect((await service.controllerLog())[0].headers.authorization).toBe('Bearer ' + fingerprint(token))
})

test('a JSON {location} from the controller is where the browser goes', async ({ page, service }) => {
  await page.goto(fixture({ 'auth-url': '/auth/controller?mode=location&to=/welcome?from=json' }))
  await service.sign(await shownChallenge(page))
  await expect(page).toHaveURL(/\/welcome\?from=json$/)
})

test('without a JSON location, the URL a redirect ended on is where the browser goes', async ({ page, service }) => {
  await page.goto(fixture({ 'auth-url': '/auth/controller?mode=redirect' }))
  await service.sign(await shownChallenge(page))
  await expect(page).toHaveURL(/\/welcome$/)
  await expect(page.getByRole('heading')).toHaveText('Welcome, user@example.com')
})

test('without a location or a redirect, the page stays, the widget says it is signed in, and the console says what to answer', async ({ page, service }) => {
  const warnings: string[] = []
  page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()))
  await page.goto(fixture({ 'auth-url': '/auth/controller?mode=plain' }))
  await page.evaluate(() => ((window as any).beforeSignIn = true))
  await service.sign(await shownChallenge(page))
  await expect(widget(page).getByRole('status')).toHaveText('Signed in')
  // The same document: no reload, which could sign in again by itself, for good.
  expect(await page.evaluate(() => (window as any).beforeSignIn)).toBe(true)
  expect((await service.controllerLog())[0].query).toContain('mode=plain')
  expect(page.url()).toContain('/fixture')
  expect(warnings).toEqual(['service-auth: no location from the controller: answer {"location": "/welcome"}.'])
  expect(await eventTypes(page)).toEqual(['ready', 'signed', 'success'])
})

/** Signs the code a controller will turn down; the person sees the error beside a fresh code. */
async function signAndSeeRefusal(page: Page, service: Service, authUrl: string) {
  await page.goto(fixture({ 'auth-url': authUrl }))
  await service.sign(await shownChallenge(page))
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in failed')
  await expect(widget(page).getByRole('img')).toBeVisible()
  expect(page.url()).toContain('/fixture')
  expect(await eventTypes(page)).toEqual(['ready', 'signed', 'error', 'ready'])
  return (await page.evaluate(() => (window as any).__events))[2].detail
}

test('a non-http(s) location is never followed: an error, then a fresh code', async ({ page, service }) => {
  const error = await signAndSeeRefusal(page, service, '/auth/controller?mode=location&to=javascript:alert(document.domain)')
  expect(error).toEqual({ reason: 'location', status: 200, retryAfter: 0 })
})

test('a controller refusal shows an error, then a fresh code', async ({ page, service }) => {
  const error = await signAndSeeRefusal(page, service, '/auth/controller?mode=deny')
  expect(error).toEqual({ reason: 'controller', status: 403, retryAfter: 0 })
})

test("a controller's refusals each say its reason in the console, and the third in a row stops on the error state", async ({ page, service }) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && consoleErrors.push(message.text()))
  await page.goto(fixture({ 'auth-url': '/auth/controller?mode=deny' }))
  for (let refusals = 1; refusals <= 3; refusals++) {
    await service.sign(await shownChallenge(page))
    await expect.poll(async () => (await service.controllerLog()).length).toBe(refusals)
    if (refusals < 3) await expect.poll(() => readyIds(page)).toHaveLength(refusals + 1)
  }
  await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
  await expect(widget(page).getByRole('button')).toHaveText('Try again')
  expect(consoleErrors).toEqual(Array(3).fill('service-auth: the controller refused the sign-in (403): This user may not sign in here.'))
  const errors = (await page.evaluate(() => (window as any).__events)).filter((e: any) => e.type === 'service-auth:error').map((e: any) => e.detail)
  expect(errors).toEqual([
    { reason: 'controller', status: 403, retryAfter: 0 },
    { reason: 'controller', status: 403, retryAfter: 0 },
    { reason: 'controller', status: 403 },
  ])
})

test('service-auth:success can be cancelled, for single-page-app routers', async ({ page, service }) => {
  await page.goto(fixture())
  await page.evaluate(() => document.addEventListener('service-auth:success', (event) => event.preventDefault()))
  await service.sign(await shownChallenge(page))
  await expect.poll(() => eventTypes(page)).toEqual(['ready', 'signed', 'success'])
  const success = (await page.evaluate(() => (window as any).__events))[2]
  expect(success.detail).toEqual({ location: expect.stringMatching(/\/welcome$/), path: '/welcome' })
  expect(page.url()).toContain('/fixture')
})
