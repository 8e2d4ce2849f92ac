// @vitest-environment node
// The kit on a mock shared by many tests: `isolate: true` takes a key of the test's own, and
// close() frees it when the test ends, with everything the test made with it. And a mock started
// without its knobs is named as such, whichever call meets it, as is a port that is taken.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createClient } from 'service-auth/server'
import { expect, it } from 'vitest'
import { generateCredentials } from '../../src/common/credentials.js'
import { startService } from '../../src/service/server.js'
import { connectMockService, type ConnectMockServiceOptions, startMockService } from '../../src/index.js'
import { KnobClient, KnobError } from '../../src/testing/knob-client.js'
import { TestKitError } from '../../src/testing/errors.js'

it("on a port in use, startMockService throws a TestKitError naming the port and its port option, not Node's EADDRINUSE", async () => {
  const taken = createServer().listen(0, '127.0.0.1')
  await once(taken, 'listening')
  const { port } = taken.address() as AddressInfo
  try {
    const error = await startMockService({ port }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TestKitError)
    expect((error as Error).message).toBe(
      `Port ${port} on 127.0.0.1 is in use (another service-auth-mock?): stop what listens there, or choose another with startMockService's port option (leave it out for a free one).`,
    )
  } finally {
    taken.close()
  }
})

it("an isolated connection's close() frees its key and what the test made with it; a second close() does nothing", async () => {
  const shared = await startMockService()
  try {
    const mine = await connectMockService({ url: shared.url, isolate: true })
    const api = createClient({ baseUrl: shared.url, key: mine.key, secret: mine.secret })
    await mine.enrolPhone('ada@example.com')
    expect((await api.identities.get('ada@example.com')).tokens).toHaveLength(1)

    await mine.close()
    await expect(api.identities.list()).rejects.toMatchObject({ status: 401 })
    await mine.close()
    // The shared mock and its own key go on.
    const own = createClient({ baseUrl: shared.url, key: shared.key, secret: shared.secret })
    expect(await own.identities.list()).toEqual([])
  } finally {
    await shared.close()
  }
})

it('against a mock started without its knobs, each call says so and how to start it, not "answered 404: There is nothing at this address"', async () => {
  const { apiKey: key, apiSecret: secret } = generateCredentials()
  const withoutKnobs = await startService({ port: 0, keys: [{ key, secret }], knobs: false })
  try {
    const noKnobs = `the mock service at ${withoutKnobs.url} has no knobs: start it with them on (not --no-knobs, not SERVICE_KNOBS=0)`
    const connected = connectMockService({ url: withoutKnobs.url, key, secret })
    await expect(connected.enrolPhone('ada@example.com')).rejects.toThrow(noKnobs)
    await expect(connected.failNext({ status: 503 })).rejects.toThrow(noKnobs)
    await expect(connected.held()).rejects.toThrow(noKnobs)
    await expect(connectMockService({ url: withoutKnobs.url, isolate: true })).rejects.toThrow(noKnobs)
  } finally {
    await withoutKnobs.close()
  }
})

it("a knob's own 404 still says the problem's detail: a mock with knobs is not taken for one without", async () => {
  const service = await startMockService()
  try {
    const knobs = new KnobClient(service.url)
    await expect(knobs.signChallenge('no-such-challenge', { identifier: 'ada@example.com' })).rejects.toThrow(
      /^signing the challenge no-such-challenge: the mock service answered 404: (?!There is nothing at this address)/,
    )
  } finally {
    await service.close()
  }
})

it("a control the mock refuses names the field and the mock's message for it, so a typo is found from the error alone", async () => {
  const service = await startMockService()
  try {
    const answered = 'the mock service answered 400: The submitted data is invalid.'
    await expect(service.failNext({ status: 99 })).rejects.toThrow(`queueing the failure: ${answered} status: This value should be between 200 and 599.`)
    await expect(service.delayNext({ ms: -5 })).rejects.toThrow(`queueing the delay: ${answered} ms: This value should be between 0 and`)
    const typo = await service.failNext({ status: 503, match: 'statuss' as 'status' }).catch((error: unknown) => error)
    expect(typo).toBeInstanceOf(KnobError)
    expect((typo as KnobError).message).toMatch(/ match: The value you selected is not a valid choice\. Choose one of: create, status, /)
    expect((typo as KnobError).errors).toEqual({ match: [expect.objectContaining({ message: expect.stringContaining('Choose one of') })] })
  } finally {
    await service.close()
  }
})

it("a port that is not one (from JavaScript: port: 'abc') is a TypeError that names port, with nothing made and nothing left running", async () => {
  // In a process of its own, in an empty directory: listen('abc') made a socket file there, and
  // served on it, keeping the process alive. The process now ends by itself, the directory empty.
  const cwd = mkdtempSync(join(tmpdir(), 'mock-port-'))
  try {
    const kit = fileURLToPath(new URL('../../src/index.ts', import.meta.url))
    const script = `import { startMockService } from ${JSON.stringify(kit)}
      await startMockService({ port: 'abc' }).catch((error) => console.log(error.name + ': ' + error.message))`
    // tsx by its path: the empty directory has no node_modules to find it in.
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
    const child = spawn(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { cwd, stdio: ['ignore', 'pipe', 'inherit'] })
    const exited = once(child, 'exit')
    try {
      const [line] = await once(createInterface({ input: child.stdout }), 'line')
      expect(line).toBe('TypeError: port must be an integer from 0 to 65535 (0 picks a free one), not "abc".')
      expect((await exited)[0]).toBe(0)
    } finally {
      child.kill()
    }
    expect(readdirSync(cwd)).toEqual([])
  } finally {
    rmSync(cwd, { recursive: true, force: true })
  }
  for (const port of [-1, 1.5, 65536, Number.NaN]) await expect(startMockService({ port })).rejects.toThrow(/^port must be an integer from 0 to 65535/)
})

it("connectMockService's options, wrong from JavaScript (url: 123), are a TypeError that names the option and what it must be, not JavaScript's own", async () => {
  const url = "connectMockService's url must be the mock service's http(s) URL, a string or a URL (e.g. 'http://127.0.0.1:8081')"
  const missing =
    'connectMockService takes { url, key, secret } (a key of that mock, and its secret) or { url, isolate: true } (a fresh key of its own): key and secret are missing.'
  const refusal = (options: unknown): unknown => {
    try {
      connectMockService(options as ConnectMockServiceOptions)
    } catch (error) {
      return error
    }
    return 'no error'
  }
  for (const [options, message] of [
    [{ url: 123, key: 'k', secret: 's' }, `${url}, not 123.`],
    [{ url: undefined, key: 'k', secret: 's' }, `${url}, not undefined.`],
    [{ url: 'localhost:8081', key: 'k', secret: 's' }, `${url}, not "localhost:8081".`],
    [{ url: 'ftp://127.0.0.1:8081', key: 'k', secret: 's' }, `${url}, not "ftp://127.0.0.1:8081".`],
    [{ url: new URL('file:///tmp/mock'), key: 'k', secret: 's' }, `${url}, not "file:///tmp/mock".`],
    [{ url: 'http://127.0.0.1:8081' }, missing],
    // isolate: false asks for the key given, not for a fresh one.
    [{ url: 'http://127.0.0.1:8081', isolate: false }, missing],
    [{ url: 'http://127.0.0.1:8081', secret: 's' }, 'key must be the API key the service issued; got undefined.'],
    // A secret shorter than the service issues: refused by service-auth/server's createClient, as the controller's own client would refuse it.
    [
      { url: 'http://127.0.0.1:8081', key: 'k', secret: 'c2hvcnQ=' },
      'secret (the API secret) decodes to 5 bytes; it must be at least 32, as the service issues it. Is it a placeholder or cut short?',
    ],
    [undefined, 'connectMockService takes { url, key, secret } or { url, isolate: true }, not undefined.'],
  ] as const) {
    const error = refusal(options)
    expect(error, JSON.stringify(options)).toBeInstanceOf(TypeError)
    expect((error as TypeError).message).toBe(message)
  }
  // With isolate: true it answers a promise, which rejects with the same.
  await expect(connectMockService({ url: 123 as unknown as string, isolate: true })).rejects.toThrow(new TypeError(`${url}, not 123.`))

  // The URL as a URL works as the string does.
  const service = await startMockService()
  try {
    const connected = connectMockService({ url: new URL(service.url), key: service.key, secret: service.secret })
    expect(connected.url).toBe(service.url)
    expect(await connected.held()).toEqual([])
  } finally {
    await service.close()
  }
})

it("enrolPhone through a key that is not the mock's, or a secret that is not the key's, is a TestKitError naming the key and what to pass, not the service's bare 401", async () => {
  const service = await startMockService()
  try {
    const { apiSecret: otherSecret } = generateCredentials()
    for (const [key, secret, detail] of [
      ['no-such-key', service.secret, "The token's iss names no API key this service knows."],
      [service.key, otherSecret, 'The token is not signed with the secret of its API key.'],
    ] as const) {
      const error = await connectMockService({ url: service.url, key, secret })
        .enrolPhone('ada@example.com')
        .catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(TestKitError)
      expect((error as Error).message).toBe(
        `enrolling ada@example.com: the mock service at ${service.url} refused the key ${key} with its secret (401: ${detail}): ` +
          "pass connectMockService one of its keys and that key's secret (the SERVICE_API_KEY and SERVICE_API_SECRET it was started with), or { url, isolate: true } for a fresh key of its own",
      )
    }
  } finally {
    await service.close()
  }
})

it("enrolPhone against a mock that is gone is a TestKitError that says it cannot be reached, not service-auth/server's own error", async () => {
  const service = await startMockService()
  const { url, key, secret } = service
  await service.close()
  const error = await connectMockService({ url, key, secret })
    .enrolPhone('ada@example.com')
    .catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(TestKitError)
  expect((error as Error).message).toMatch(new RegExp(`^enrolling ada@example\\.com: the mock service at ${url} cannot be reached \\(.+\\)$`))
})
