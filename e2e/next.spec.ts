// The Next.js example (examples/next): built with `next build` and started with `next start`, as
// it would be deployed, against the mock service; examples/phone.mjs plays the phone. A person
// signs in with the <ServiceAuth> component, reaches the protected page and signs out; the login
// page renders on the server with the widget's place held and a language pack loaded.
// (Once @service-auth/mock lands, its mock and signer replace startService and phone.mjs here.)
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { expect, test } from '@playwright/test'
import { generateCredentials, startService, type ServiceHandle } from '@service-auth/mock/service'
import { controllerCheckMisses } from './controller-check.js'
import { scansInAndOut } from './sign-in-walk.js'

const run = promisify(execFile)
const NEXT = 'node_modules/next/dist/bin/next'

// One build and one server for the file: its tests share them, in one worker.
test.describe.configure({ mode: 'serial' })

let service: ServiceHandle
let app: ChildProcess | undefined
let appUrl: string
const { apiKey, apiSecret } = generateCredentials()
const env = () => ({ ...process.env, NEXT_TELEMETRY_DISABLED: '1', SERVICE_URL: service.url, SERVICE_KEY: apiKey, SERVICE_SECRET: apiSecret })
const phone = (command: string) => run(process.execPath, ['examples/phone.mjs', command, 'ada@example.com'], { env: env() })

test.beforeAll(async () => {
  // A production build: a minute or two on a busy two-core machine.
  test.setTimeout(300_000)
  service = await startService({ port: 0, keys: [{ key: apiKey, secret: apiSecret }], knobs: true })
  await run(process.execPath, [NEXT, 'build', 'examples/next'], { env: env(), maxBuffer: 16 << 20 })
  app = spawn(process.execPath, [NEXT, 'start', 'examples/next', '--port', '0', '--hostname', '127.0.0.1'], {
    env: env(),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  // It prints "- Local: http://127.0.0.1:<port>" once it listens.
  for await (const line of createInterface({ input: app.stdout! })) {
    const local = /Local:\s+(http:\/\/\S+)/.exec(line)
    if (local) {
      appUrl = local[1]!
      break
    }
  }
  if (!appUrl) throw new Error(`next start exited (${app.exitCode}) before it listened`)
  app.stdout!.resume()
  await phone('enrol')
})
test.afterAll(async () => {
  if (app && app.exitCode === null) {
    app.kill()
    await once(app, 'exit')
  }
  await service?.close()
})

test("the login page renders on the server with the widget's place held, and the widget mounts into it without moving anything", async ({ browser }) => {
  const html = await (await fetch(appUrl + '/login')).text()
  expect(html).toContain('<div data-service-auth=""></div>')

  const noScript = await browser.newContext({ javaScriptEnabled: false })
  const still = await noScript.newPage()
  await still.goto(appUrl + '/login')
  const reserved = await still.locator('[data-service-auth]').boundingBox()
  await noScript.close()
  expect(reserved!.height).toBeGreaterThan(200)

  const page = await browser.newPage()
  await page.goto(appUrl + '/login')
  await expect(page.getByRole('img', { name: 'QR code: sign in with the app' })).toBeVisible()
  expect(await page.locator('[data-service-auth]').boundingBox()).toEqual(reserved)
  await page.close()
})

test('a person signs in with the phone, reaches the protected page and signs out', async ({ page }) => {
  await scansInAndOut(page, appUrl, () => phone('sign'))
})

test("the German language pack, imported by the page's client component, renders on the server and shows in the browser", async ({ page }) => {
  await page.goto(appUrl + '/login?lang=de')
  await expect(page.getByRole('img', { name: 'QR-Code: mit der App anmelden' })).toBeVisible()
  await expect(page.getByRole('status')).toHaveText('Mit der App scannen')
})

test('its controller passes the controller check (`service-auth-mock check-controller`), case by case', async () => {
  // The confirmation that never answers is given the helper's 10 s to fail closed.
  test.setTimeout(60_000)
  expect(await controllerCheckMisses(appUrl, { url: service.url, key: apiKey, secret: apiSecret })).toEqual([])
})
