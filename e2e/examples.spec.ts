// The example apps under examples/ (Express with node:http, Hono with the Fetch API), each started
// as the README says, `node examples/<name>/app.mjs` with the service's address and credentials.
// Tested as an integrator tests their own login page: @service-auth/mock starts the mock,
// gives Ada a phone and signs the code the page shows. Then the README's by-hand way: the
// `service-auth-mock` command, examples/phone.mjs playing the phone, and the test key test-signs.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { expect, test } from '@playwright/test'
import { startMockService, TEST_KEYS, TEST_SECRET, type MockService } from '@service-auth/mock'
import { scansInAndOut, signsInAndOut } from './sign-in-walk.js'

const run = promisify(execFile)

/** Starts an example app with the service's address and credentials in its environment; its login page's origin. */
async function startExample(name: string, env: Record<string, string>): Promise<{ app: ChildProcess; appUrl: string }> {
  const app = spawn(process.execPath, [`examples/${name}/app.mjs`], { env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] })
  // It prints the login page's address once it listens.
  const [line] = await once(createInterface({ input: app.stdout! }), 'line')
  return { app, appUrl: new URL(line).origin }
}

for (const name of ['express', 'hono']) {
  test.describe(`the ${name} example`, () => {
    let service: MockService
    let app: ChildProcess
    let appUrl: string

    test.beforeAll(async () => {
      service = await startMockService()
      ;({ app, appUrl } = await startExample(name, { SERVICE_URL: service.url, SERVICE_KEY: service.key, SERVICE_SECRET: service.secret }))
      await service.enrolPhone('ada@example.com')
    })
    test.afterAll(async () => {
      app?.kill()
      await service?.close()
    })

    test('a person signs in with the phone, reaches the protected page and signs out', async ({ page }) => {
      await scansInAndOut(page, appUrl, () => service.signShownCode(page, 'ada@example.com'))
    })
  })
}

test.describe('by hand, as the README says: `service-auth-mock`, then the examples', () => {
  let mock: ChildProcess
  /** What the command printed for the controller: SERVICE_URL, SERVICE_KEY, SERVICE_SECRET. */
  const printed: Record<string, string> = {}
  const apps: ChildProcess[] = []
  let ownKeyUrl: string
  let testKeyUrl: string
  const phone = (command: string) => run(process.execPath, ['examples/phone.mjs', command, 'ada@example.com'], { env: { ...process.env, ...printed } })

  test.beforeAll(async () => {
    // The built command, as `npx service-auth-mock` runs it; Ada is who signs the test-signs codes.
    mock = spawn(process.execPath, ['packages/mock/dist/cli.mjs', '--port', '0', '--in-memory', '--test-identity', 'ada@example.com'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    for await (const line of createInterface({ input: mock.stdout! })) {
      const [, name, value] = /^(SERVICE_(?:URL|KEY|SECRET))=(\S+)$/.exec(line) ?? []
      if (name) printed[name] = value!
      if (line === 'Ctrl-C stops it.') break
    }
    const [ownKey, testKey] = await Promise.all([
      startExample('express', printed),
      startExample('hono', { SERVICE_URL: printed.SERVICE_URL!, SERVICE_KEY: TEST_KEYS.signs, SERVICE_SECRET: TEST_SECRET }),
      phone('enrol'),
    ])
    apps.push(ownKey.app, testKey.app)
    ownKeyUrl = ownKey.appUrl
    testKeyUrl = testKey.appUrl
  })
  test.afterAll(async () => {
    for (const app of apps) app.kill()
    // Ctrl-C stops it cleanly.
    mock?.kill('SIGINT')
    if (mock) expect((await once(mock, 'exit'))[0]).toBe(0)
  })

  test('with the key it printed, examples/phone.mjs signs the code on the login page', async ({ page }) => {
    await scansInAndOut(page, ownKeyUrl, () => phone('sign'))
  })

  test('with the test key test-signs, Ada signs in with nothing else to do', async ({ page }) => {
    await signsInAndOut(page, testKeyUrl, async () => {})
  })
})
