// The README's Playwright example ("Testing your sign-in"), word for word but for where the app
// is imported from: here, the Express example. test/readme.test.ts holds the two together.
import { expect, test } from '@playwright/test'
import { startMockService } from '@service-auth/mock'
import { startApp } from '../examples/express/app.mjs' // your app, told the service's URL, key and secret

test('Ada signs in with her phone', async ({ page }) => {
  const service = await startMockService()
  await service.enrolPhone('ada@example.com')
  const users = new Map([['ada@example.com', { name: 'Ada' }]])
  const app = await startApp({ serviceUrl: service.url, key: service.key, secret: service.secret, users })
  await page.goto(app.url + '/login')
  await service.signShownCode(page, 'ada@example.com')
  await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')
  app.close()
  await service.close()
})
