// The Python and PHP examples (examples/python, examples/php), each started as its header says,
// with the interpreter alone, against the mock; examples/cdn.py serves the embed's built files as
// the CDN (SERVICE_AUTH_CDN), so the browser checks the pages' pinned integrity hashes for real.
// Ada signs in with her phone in Chromium, reaches the protected page and signs out, as with the
// Node examples: the login page's markup, its policy and the controller's redirect work in a
// browser. (test/examples/check-controller.test.ts checks their controllers case by case.)
import type { ChildProcess } from 'node:child_process'
import { expect, test } from '@playwright/test'
import { startMockService, type MockService } from '@service-auth/mock'
import { startServer, stopProcess } from './processes.js'
import { scansInAndOut } from './sign-in-walk.js'

const EXAMPLES = {
  python: { command: ['python3', 'examples/python/app.py'], output: 'stdout' },
  php: { command: ['php', '-S', '127.0.0.1:0', 'examples/php/app.php'], output: 'stderr' },
} as const

for (const [name, { command, output }] of Object.entries(EXAMPLES)) {
  test.describe(`the ${name} example`, () => {
    let service: MockService
    let cdn: ChildProcess
    let app: ChildProcess
    let appUrl: string

    test.beforeAll(async () => {
      let cdnUrl: string
      ;[service, { child: cdn, origin: cdnUrl }] = await Promise.all([startMockService(), startServer(['python3', 'examples/cdn.py'], { env: { PORT: '0' } })])
      const env = { SERVICE_URL: service.url, SERVICE_KEY: service.key, SERVICE_SECRET: service.secret, SERVICE_AUTH_CDN: cdnUrl, PORT: '0' }
      ;[{ child: app, origin: appUrl }] = await Promise.all([startServer(command, { env, output }), service.enrolPhone('ada@example.com')])
    })
    test.afterAll(async () => {
      await stopProcess(app)
      await stopProcess(cdn)
      await service?.close()
    })

    test('a person signs in with the phone, reaches the protected page and signs out', async ({ page }) => {
      await scansInAndOut(page, appUrl, () => service.signShownCode(page, 'ada@example.com'))
    })

    test("a user the app's store does not know is refused, and the page stays on the login page", async ({ page }) => {
      await service.enrolPhone('grace@example.com')
      await page.goto(appUrl + '/login')
      await expect(service.signShownCode(page, 'grace@example.com')).rejects.toMatchObject({ name: 'SignInRefusedError', reason: 'controller', status: 403 })
      await expect(page).toHaveURL(appUrl + '/login')
    })
  })
}
