// The SvelteKit example (examples/sveltekit): built with `vite build` (adapter-node) and run with
// `node build`, as it would be deployed, against the mock service (@service-auth/mock); Ada's
// phone signs the code shown. The login page is a Svelte 5 page with the <service-auth> element,
// rendered on the server with the widget's place held; the controller is a +server.ts endpoint.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { expect, test } from '@playwright/test'
import { startMockService, type MockService } from '@service-auth/mock'
import { controllerCheckMisses } from './controller-check.js'
import { freePort, stopProcess } from './processes.js'
import { scansInAndOut } from './sign-in-walk.js'

const run = promisify(execFile)
const EXAMPLE = 'examples/sveltekit'

// One build and one server for the file: its tests share them, in one worker.
test.describe.configure({ mode: 'serial' })

let service: MockService
let app: ChildProcess | undefined
let appUrl: string

test.beforeAll(async () => {
  // A production build: half a minute on a busy two-core machine.
  test.setTimeout(180_000)
  service = await startMockService()
  await Promise.all([
    run(process.execPath, ['../../node_modules/vite/bin/vite.js', 'build'], { cwd: EXAMPLE, maxBuffer: 16 << 20 }),
    service.enrolPhone('ada@example.com'),
  ])
  const port = await freePort()
  appUrl = `http://127.0.0.1:${port}`
  // ORIGIN, as adapter-node asks of a deployment: SvelteKit refuses a form posted from another origin (Sign out's).
  app = spawn(process.execPath, ['build'], {
    cwd: EXAMPLE,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      ORIGIN: appUrl,
      SERVICE_URL: service.url,
      SERVICE_KEY: service.key,
      SERVICE_SECRET: service.secret,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  // It prints "Listening on http://127.0.0.1:<port>" once it listens.
  for await (const line of createInterface({ input: app.stdout! })) {
    if (line.startsWith('Listening on ')) break
  }
  if (app.exitCode !== null) throw new Error(`node build exited (${app.exitCode}) before it listened`)
  app.stdout!.resume()
})
test.afterAll(async () => {
  await stopProcess(app)
  await service?.close()
})

test("the login page renders on the server with the element's place held, and the widget mounts into it without moving anything", async ({ browser }) => {
  const html = await (await fetch(appUrl + '/login')).text()
  expect(html).toMatch(new RegExp(`<service-auth api-key="${service.key}" auth-url="/auth/controller" api="${service.url}"></service-auth>`))

  const noScript = await browser.newContext({ javaScriptEnabled: false })
  const still = await noScript.newPage()
  await still.goto(appUrl + '/login')
  const reserved = await still.locator('service-auth').boundingBox()
  await noScript.close()
  expect(reserved!.height).toBeGreaterThan(200)

  const page = await browser.newPage()
  await page.goto(appUrl + '/login')
  await expect(page.getByRole('img', { name: 'QR code: sign in with the app' })).toBeVisible()
  expect(await page.locator('service-auth').boundingBox()).toEqual(reserved)
  await page.close()
})

test('a person signs in with the phone through the element, reaches the protected page and signs out; one code was asked for', async ({ page }) => {
  const creations: string[] = []
  page.on('request', (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/v1/entity/challenges' && creations.push(request.url()))
  await scansInAndOut(page, appUrl, async () => {
    await service.signShownCode(page, 'ada@example.com')
    // The first login page's: each later visit to /login (after signing out) asks for its own.
    expect(creations).toHaveLength(1)
  })
})

test("the element's events reach the Svelte page: a refusal by the controller shows the page's own message", async ({ page }) => {
  // Grace is enrolled at the service but unknown to the app's user store: the controller refuses her.
  await service.enrolPhone('grace@example.com')
  await page.goto(appUrl + '/login')
  // The kit says at once that the controller refused the code it signed, and why.
  await expect(service.signShownCode(page, 'grace@example.com')).rejects.toMatchObject({ name: 'SignInRefusedError', reason: 'controller', status: 403 })
  await expect(page.getByRole('alert')).toHaveText('This account may not sign in here.')
  await expect(page).toHaveURL(appUrl + '/login')
})

test('its controller passes the controller check (`service-auth-mock check-controller`), case by case', async () => {
  // The confirmation that never answers is given the helper's 10 s to fail closed.
  test.setTimeout(60_000)
  expect(await controllerCheckMisses(appUrl, service)).toEqual([])
})
