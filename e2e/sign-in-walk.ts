// The walk every example app's test takes: Ada signs in, reaches the protected page and signs
// out, with no console error and no page that another site may frame.
import { expect, type Page } from '@playwright/test'

/**
 * From the protected page to the login page, `signIn` (which makes the phone sign the code shown),
 * the protected page, and out again, back at the login page.
 */
export async function signsInAndOut(page: Page, appUrl: string, signIn: () => Promise<unknown>): Promise<void> {
  const consoleErrors: string[] = []
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
  /** Each page the person sees, and what it says about being framed by another site. */
  const pages = new Map<string, string>()
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'document' || response.status() !== 200) return
    const headers = response.headers()
    pages.set(new URL(response.url()).pathname, `${headers['x-frame-options']}; ${/frame-ancestors [^;]*/.exec(headers['content-security-policy'] ?? '')}`)
  })
  await page.goto(appUrl + '/welcome')
  await expect(page).toHaveURL(appUrl + '/login')
  await signIn()
  await expect(page).toHaveURL(appUrl + '/welcome')
  await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(appUrl + '/login')
  await page.goto(appUrl + '/welcome')
  await expect(page).toHaveURL(appUrl + '/login')
  expect(consoleErrors).toEqual([])
  expect(Object.fromEntries(pages)).toEqual({ '/login': "DENY; frame-ancestors 'none'", '/welcome': "DENY; frame-ancestors 'none'" })
}

/**
 * The walk with the phone, as most example apps take it: once the login page shows the code (its
 * QR and "Scan with the app"), `sign` makes the phone sign it.
 */
export async function scansInAndOut(page: Page, appUrl: string, sign: () => Promise<unknown>): Promise<void> {
  await signsInAndOut(page, appUrl, async () => {
    await expect(page.getByRole('img', { name: 'QR code: sign in with the app' })).toBeVisible()
    await expect(page.getByRole('status')).toHaveText('Scan with the app')
    await sign()
  })
}
