// The Vue example (examples/vue): built with `vite build` and served by its Hono server, as it
// would be deployed, against the mock service (@service-auth/mock); Ada's phone signs the code
// shown. A person signs in with the <ServiceAuth> Vue component, reaches the protected page and
// signs out, and the page asked the service for one code.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { expect, test } from '@playwright/test'
import { startMockService, type MockService } from '@service-auth/mock'
import { stopProcess } from './processes.js'
import { scansInAndOut } from './sign-in-walk.js'

const run = promisify(execFile)

// One build and one server for the file.
test.describe.configure({ mode: 'serial' })

let service: MockService
let app: ChildProcess | undefined
let appUrl: string

test.beforeAll(async () => {
  test.setTimeout(120_000)
  service = await startMockService()
  await Promise.all([run(process.execPath, ['node_modules/vite/bin/vite.js', 'build', 'examples/vue']), service.enrolPhone('ada@example.com')])
  app = spawn(process.execPath, ['examples/vue/server.mjs'], {
    env: { ...process.env, SERVICE_URL: service.url, SERVICE_KEY: service.key, SERVICE_SECRET: service.secret, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  // It prints the login page's address once it listens.
  const [line] = await once(createInterface({ input: app.stdout! }), 'line')
  appUrl = new URL(line).origin
})
test.afterAll(async () => {
  await stopProcess(app)
  await service?.close()
})

test('a person signs in with the phone through the Vue component, reaches the protected page and signs out; one code was asked for', async ({ page }) => {
  const creations: string[] = []
  page.on('request', (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/v1/entity/challenges' && creations.push(request.url()))
  await scansInAndOut(page, appUrl, async () => {
    await service.signShownCode(page, 'ada@example.com')
    // The first login page's: each later visit to /login (after signing out) asks for its own.
    expect(creations).toHaveLength(1)
  })
})
