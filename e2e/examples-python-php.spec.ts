// The Python and PHP examples (examples/python, examples/php), each started as its header says,
// with the interpreter alone, against the mock; the embed's built files stand in for the CDN
// (SERVICE_AUTH_CDN). Ada signs in with her phone in Chromium, reaches the protected page and signs
// out, as with the Node examples: the login page's markup, its policy and the controller's redirect
// work in a browser. (test/examples/check-controller.test.ts checks their controllers case by case.)
import type { ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { startMockService, type MockService } from '@service-auth/mock'
import { startServer, stopProcess } from './processes.js'
import { scansInAndOut } from './sign-in-walk.js'

/** Serves the embed's script and stylesheet from the installed package, as the CDN does. */
async function startCdn(): Promise<Server> {
  const files: Record<string, [specifier: string, type: string]> = {
    '/service-auth.js': ['service-auth/service-auth.js', 'text/javascript; charset=utf-8'],
    '/service-auth.css': ['service-auth/style.css', 'text/css; charset=utf-8'],
  }
  const server = createServer(async (req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://cdn').pathname]
    if (!file) return void res.writeHead(404).end()
    res.writeHead(200, { 'Content-Type': file[1] }).end(await readFile(fileURLToPath(import.meta.resolve(file[0]))))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

const EXAMPLES = {
  python: { command: ['python3', 'examples/python/app.py'], output: 'stdout' },
  php: { command: ['php', '-S', '127.0.0.1:0', 'examples/php/app.php'], output: 'stderr' },
} as const

for (const [name, { command, output }] of Object.entries(EXAMPLES)) {
  test.describe(`the ${name} example`, () => {
    let service: MockService
    let cdn: Server
    let app: ChildProcess
    let appUrl: string

    test.beforeAll(async () => {
      ;[service, cdn] = await Promise.all([startMockService(), startCdn()])
      const env = {
        SERVICE_URL: service.url,
        SERVICE_KEY: service.key,
        SERVICE_SECRET: service.secret,
        SERVICE_AUTH_CDN: `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`,
        PORT: '0',
      }
      ;[{ child: app, origin: appUrl }] = await Promise.all([startServer(command, { env, output }), service.enrolPhone('ada@example.com')])
    })
    test.afterAll(async () => {
      await stopProcess(app)
      cdn?.close()
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
