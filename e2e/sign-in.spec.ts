import { fingerprint } from '@service-auth/http'
import { expect, fixture, shownChallenge, test } from './fixtures.js'
import { readQr } from './qr.js'

test('a person scans the code, the phone signs it, and they land signed in', async ({ page, service }) => {
  // From a reset service: the login page's phone panel sets a phone up only for a name not
  // enrolled yet (or one it set up itself), as the site hands out no one else's code.
  await page.goto('/login')
  const qr = page.getByRole('img', { name: 'QR code: sign in with the app' })
  await expect(qr).toBeVisible()
  await expect(qr).toHaveAttribute('src', /^data:image\/png;base64,/)
  await expect(page.locator('[data-service-auth]').getByRole('status')).toHaveText('Scan with the app')
  await expect(page.getByText(/^Expires in \d\d:\d\d$/)).toBeVisible()

  await page.getByRole('button', { name: 'Sign with phone' }).click()
  await expect(page).toHaveURL(/\/welcome$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, user@example.com')
  expect((await service.controllerLog()).map((call) => call.status)).toEqual([200])
})

test('the code on screen is the challenge: the phone reads it and signs that one', async ({ page, service }) => {
  await page.goto(fixture())
  const qr = page.locator('[data-service-auth]').getByRole('img')
  await expect(qr).toBeVisible()
  const text = await readQr(qr)
  const id = text.replace('serviceauth:challenge:', '')
  expect(id).toBe(await shownChallenge(page))
  await service.sign(id)
  await expect(page).toHaveURL(/\/welcome$/)
})

test('the controller receives the token with the documented headers and the session cookie', async ({ page, service, context, demo }) => {
  await context.addCookies([{ name: 'pre', value: 'existing', url: demo.appUrl }])
  await page.goto(fixture())
  const id = await shownChallenge(page)
  const token = await service.sign(id, 'ada@example.com')

  await expect(page).toHaveURL(/\/welcome$/)
  const [call] = await service.controllerLog()
  expect(call.headers.accept).toBe('application/json')
  expect(call.headers['x-requested-with']).toBe('XMLHttpRequest')
  expect(call.headers['x-service-auth']).toBe(fingerprint(token))
  expect(call.headers.cookie).toContain('pre=' + fingerprint('existing'))
  expect(call.valid).toBe(true)
  expect(call.status).toBe(200)
  expect(call.claims).toMatchObject({ jti: id, sub: 'ada@example.com' })
})
