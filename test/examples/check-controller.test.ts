// @vitest-environment node
// The controller check (`checkController` of @service-auth/mock) against the example apps as their
// READMEs start them: Express and Hono on the server helper, Python with its standard library
// alone, PHP with php-cli alone. Each passes every case. (Next.js and SvelteKit are checked where
// their end-to-end tests build and start them: e2e/next.spec.ts, e2e/sveltekit.spec.ts.) All side
// by side against one mock, each app with a key of its own.
import type { ChildProcess } from 'node:child_process'
import { connectMockService, startMockService, type MockService } from '@service-auth/mock'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { controllerCheckMisses } from '../../e2e/controller-check.js'
import { startServer, stopProcess } from '../../e2e/processes.js'

/** Each example: how its README starts it, and the line it prints once it listens, with its address. */
const EXAMPLES = {
  express: { command: [process.execPath, 'examples/express/app.mjs'], listening: 'stdout' },
  hono: { command: [process.execPath, 'examples/hono/app.mjs'], listening: 'stdout' },
  python: { command: ['python3', 'examples/python/app.py'], listening: 'stdout' },
  // PHP's built-in server says "… Development Server (http://127.0.0.1:<port>) started" on stderr.
  php: { command: ['php', '-S', '127.0.0.1:0', 'examples/php/app.php'], listening: 'stderr' },
} as const

let service: MockService
const apps: ChildProcess[] = []
beforeAll(async () => {
  service = await startMockService({ testKeys: false })
})
afterAll(async () => {
  await Promise.all(apps.map(stopProcess))
  await service?.close()
})

/** Starts the example with a key of its own on the mock; its origin, and the key's credentials. */
async function start(name: keyof typeof EXAMPLES) {
  const { url, key, secret } = await connectMockService({ url: service.url, isolate: true })
  const { command, listening } = EXAMPLES[name]
  const { child, origin } = await startServer(command, { env: { SERVICE_URL: url, SERVICE_KEY: key, SERVICE_SECRET: secret, PORT: '0' }, output: listening })
  apps.push(child)
  return { origin, url, key, secret }
}

describe.concurrent('the example apps, checked', () => {
  it.each(Object.keys(EXAMPLES) as (keyof typeof EXAMPLES)[])('%s: every case passes', async (name) => {
    const { origin, url, key, secret } = await start(name)
    // Nor a warning: the server helper refuses a request without X-Requested-With (400), as the
    // Python and PHP examples do by hand.
    expect(await controllerCheckMisses(origin, { url, key, secret })).toEqual([])
  })
})
