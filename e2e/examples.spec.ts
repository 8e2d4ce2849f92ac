// The example apps under examples/ (Express with node:http, Hono with the Fetch API), each run as
// an integrator would run it, against the mock service: a person signs in with the phone in
// Chromium, reaches the protected page, and signs out.
import type { AddressInfo } from 'node:net'
import { createServer, type Server } from 'node:http'
import { getRequestListener } from '@hono/node-server'
import { expect, test } from '@playwright/test'
import { createClient } from 'service-auth/server'
import { generateCredentials } from '../demo/common/credentials.ts'
import { startService, type ServiceHandle } from '../demo/service/server.ts'
import { createApp as createExpressApp } from '../examples/express/app.mjs'
import { createApp as createHonoApp } from '../examples/hono/app.mjs'
import { readQrPng } from './qr.ts'

type AppOptions = { serviceUrl: string; key: string; secret: string; users: Map<string, { name: string }> }

const EXAMPLES: [string, (options: AppOptions) => Server][] = [
  ['Express', (options) => createServer(createExpressApp(options))],
  ['Hono', (options) => createServer(getRequestListener(createHonoApp(options).fetch))],
]

for (const [name, serverFor] of EXAMPLES) {
  test.describe(`the ${name} example`, () => {
    let service: ServiceHandle
    let server: Server
    let appUrl: string
    const { apiKey: key, apiSecret: secret } = generateCredentials()

    test.beforeAll(async () => {
      service = await startService({ port: 0, keys: [{ key, secret }], knobs: true })
      const users = new Map([['ada@example.com', { name: 'Ada' }]])
      server = serverFor({ serviceUrl: service.url, key, secret, users })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      // Ada's phone: enrolled by the integrator's back office, set up by scanning the code.
      const { enrollment } = await createClient({ baseUrl: service.url, key, secret }).enroll({ identifier: 'ada@example.com' })
      await knob('devices', { token: readQrPng(Buffer.from(enrollment.base64ImageData, 'base64')) })
    })
    test.afterAll(async () => {
      await new Promise((resolve) => server.close(resolve))
      await service.close()
    })

    async function knob(path: string, body?: unknown) {
      const res = await fetch(`${service.url}/__knobs/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      expect(res.ok, `${path}: ${res.status}`).toBe(true)
      return res.json().catch(() => undefined)
    }

    test('a person signs in with the phone, reaches the protected page and signs out', async ({ page }) => {
      const consoleErrors: string[] = []
      page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
      await page.goto(appUrl + '/welcome')
      await expect(page).toHaveURL(appUrl + '/login')
      await expect(page.getByRole('img', { name: 'QR code: sign in with the app' })).toBeVisible()
      await expect(page.getByRole('status')).toHaveText('Scan with the app')

      const [challenge] = (await knob('challenges')) as { id: string; state: string }[]
      await knob(`challenges/${challenge!.id}/sign`, { identifier: 'ada@example.com' })
      await expect(page).toHaveURL(appUrl + '/welcome')
      await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')

      await page.getByRole('button', { name: 'Sign out' }).click()
      await expect(page).toHaveURL(appUrl + '/login')
      await page.goto(appUrl + '/welcome')
      await expect(page).toHaveURL(appUrl + '/login')
      expect(consoleErrors).toEqual([])
    })
  })
}
