// The example apps under examples/ (Express with node:http, Hono with the Fetch API), each started
// as the README says, `node examples/<name>/app.mjs` with the service's address and credentials,
// against the mock service; examples/phone.mjs plays the phone, as it does for a person trying
// them by hand. A person signs in in Chromium, reaches the protected page, and signs out.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { expect, test } from '@playwright/test'
import { generateCredentials } from '../demo/common/credentials.ts'
import { startService, type ServiceHandle } from '../demo/service/server.ts'

const run = promisify(execFile)

for (const name of ['express', 'hono']) {
  test.describe(`the ${name} example`, () => {
    let service: ServiceHandle
    let app: ChildProcess
    let appUrl: string
    const { apiKey, apiSecret } = generateCredentials()
    const env = () => ({ ...process.env, SERVICE_URL: service.url, SERVICE_KEY: apiKey, SERVICE_SECRET: apiSecret })
    const phone = (command: string) => run(process.execPath, ['examples/phone.mjs', command, 'ada@example.com'], { env: env() })

    test.beforeAll(async () => {
      service = await startService({ port: 0, keys: [{ key: apiKey, secret: apiSecret }], knobs: true })
      app = spawn(process.execPath, [`examples/${name}/app.mjs`], { env: { ...env(), PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] })
      // It prints the login page's address once it listens.
      const [line] = await once(createInterface({ input: app.stdout! }), 'line')
      appUrl = new URL(line).origin
      await phone('enrol')
    })
    test.afterAll(async () => {
      app?.kill()
      await service?.close()
    })

    test('a person signs in with the phone, reaches the protected page and signs out', async ({ page }) => {
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
      await expect(page.getByRole('img', { name: 'QR code: sign in with the app' })).toBeVisible()
      await expect(page.getByRole('status')).toHaveText('Scan with the app')

      await phone('sign')
      await expect(page).toHaveURL(appUrl + '/welcome')
      await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')

      await page.getByRole('button', { name: 'Sign out' }).click()
      await expect(page).toHaveURL(appUrl + '/login')
      await page.goto(appUrl + '/welcome')
      await expect(page).toHaveURL(appUrl + '/login')
      expect(consoleErrors).toEqual([])
      expect(Object.fromEntries(pages)).toEqual({ '/login': "DENY; frame-ancestors 'none'", '/welcome': "DENY; frame-ancestors 'none'" })
    })
  })
}
