// @vitest-environment node
// `service-auth-mock check-controller`: its exit codes (0 nothing failed, 1 a check failed, 2 it
// could not run, and why), its table with each failure's fix, its JSON, and its options over the
// environment the controller reads. Once as a process, as `npx service-auth-mock` runs it.
import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateCredentials } from '../../src/common/credentials.js'
import { startService } from '../../src/service/server.js'
import { runCommand } from '../../src/command/command-line.js'
import { checkController, connectMockService, startMockService, type MockService } from '../../src/index.js'
import { type Flaw, startGalleryApp } from './gallery.js'

const ADA = 'ada@example.com'
let service: MockService
const apps: { close(): Promise<void> }[] = []

beforeAll(async () => {
  service = await startMockService({ testKeys: false })
})
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()))
  await service?.close()
})

/** Runs the command in this process; what it wrote, and its exit code. */
async function command(args: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = []
  const err: string[] = []
  const result = await runCommand(['check-controller', ...args], env, { log: (text) => out.push(text), error: (text) => err.push(text) })
  return { exitCode: 'exitCode' in result ? result.exitCode : undefined, out: out.join('\n'), err: err.join('\n') }
}

/** A gallery app with a key of its own on the mock; the command's arguments, and the environment it reads. */
async function app(flaw?: Flaw) {
  const { url, key, secret } = await connectMockService({ url: service.url, isolate: true })
  const started = await startGalleryApp({ flaw, service: { url, key, secret }, users: new Set([ADA]) })
  apps.push(started)
  return {
    args: ['--controller', `${started.url}/auth/controller`, '--identity', ADA, '--signed-in', `${started.url}/welcome`],
    env: { SERVICE_URL: url, SERVICE_KEY: key, SERVICE_SECRET: secret },
  }
}

describe('service-auth-mock check-controller', () => {
  it.concurrent('exits 0 on a controller that passes, with a line per case and the count', async () => {
    const { args, env } = await app()
    const { exitCode, out, err } = await command(args, env)
    expect({ exitCode, err }).toEqual({ exitCode: 0, err: '' })
    expect(out).toMatch(
      /^Checked http:\/\/127\.0\.0\.1:\d+\/auth\/controller as ada@example\.com, against the mock at http:\/\/127\.0\.0\.1:\d+; sessions judged by /,
    )
    expect(out).toMatch(/^pass {2}valid-sign-in {8}a valid signing starts a session/m)
    expect(out).toMatch(/^pass {2}alg-none {13}a token with alg: none and no signature$/m)
    expect(out).not.toContain('Fix:')
    expect(out.split('\n').at(-1)).toBe('18 checks: 18 passed, 0 failed, 0 warnings')
  })

  it.concurrent('exits 1 when a check fails, and says under it what the controller did and how to fix it', async () => {
    const { args, env } = await app('skips the user store')
    const { exitCode, out } = await command(args, env)
    expect(exitCode).toBe(1)
    const failed = out.slice(out.indexOf('FAIL  unknown-user'))
    expect(failed).toMatch(
      /^FAIL {2}unknown-user {9}a valid signing by a user your store does not know\n {27}answered 200 \{location: "\/welcome"\}; GET \/welcome: 200, signed in\n {27}Fix: Look the token’s sub up in your user store/,
    )
    expect(out.split('\n').at(-1)).toBe('18 checks: 17 passed, 1 failed, 0 warnings')
  })

  it.concurrent('--json prints every verdict as {id, title, outcome, evidence, fix}; the options win over the environment', async () => {
    const { args, env } = await app('ignores exp')
    const { exitCode, out } = await command([...args, '--json', '--service', env.SERVICE_URL, '--key', env.SERVICE_KEY, '--secret', env.SERVICE_SECRET], {
      SERVICE_URL: 'http://127.0.0.1:9',
      SERVICE_KEY: 'other',
      SERVICE_SECRET: 'not base64!',
    })
    expect(exitCode).toBe(1)
    const { checks } = JSON.parse(out) as { checks: Record<string, unknown>[] }
    expect(checks).toHaveLength(18)
    for (const check of checks) expect(Object.keys(check)).toEqual(['id', 'title', 'outcome', 'evidence', 'fix'])
    expect(checks.find(({ id }) => id === 'expired')).toEqual({
      id: 'expired',
      title: 'a token whose exp has passed, signed right',
      outcome: 'fail',
      evidence: 'answered 200 {location: "/welcome"}; GET /welcome: 200, signed in',
      fix: 'Refuse a token whose exp has passed (allow a few seconds of clock skew at most).',
    })
    expect(checks.filter(({ outcome }) => outcome !== 'pass').map(({ id }) => id)).toEqual(['expired'])
  })

  it.concurrent('prints what the controller wrote with its terminal escapes as \\u escapes, in the table and in --json', async () => {
    // The first token (the valid sign-in's) is refused with a problem detail, every other with a title alone.
    const screen = '\u001b[2J\u001b[31mALL CHECKS PASSED\u009b0m'
    let tokens = 0
    const controller = createServer((req, res) => {
      if (req.headers['x-service-auth'] === undefined) return void res.writeHead(401).end()
      const problem = ++tokens === 1 ? { title: 'Unauthorized', detail: screen } : { title: screen }
      res.writeHead(401, { 'Content-Type': 'application/problem+json' }).end(JSON.stringify({ status: 401, ...problem }))
    })
    await new Promise<void>((resolve) => controller.listen(0, '127.0.0.1', resolve))
    apps.push({ close: () => new Promise((resolve) => controller.close(() => resolve())) })
    const { url, key, secret } = await connectMockService({ url: service.url, isolate: true })
    const args = ['--controller', `http://127.0.0.1:${(controller.address() as AddressInfo).port}/auth/controller`, '--identity', ADA]
    const env = { SERVICE_URL: url, SERVICE_KEY: key, SERVICE_SECRET: secret }
    const shown = 'answered 401 ("\\u001b[2J\\u001b[31mALL CHECKS PASSED\\u009b0m")'

    const table = await command(args, env)
    expect(table.exitCode).toBe(1)
    for (const raw of ['\u001b', '\u009b']) expect(table.out).not.toContain(raw)
    expect(table.out).toMatch(/^FAIL {2}valid-sign-in .+\n {27}answered 401 \("\\u001b\[2J\\u001b\[31mALL CHECKS PASSED\\u009b0m"\)\n/m)

    const json = await command([...args, '--json'], env)
    const { checks } = JSON.parse(json.out) as { checks: { id: string; evidence: string }[] }
    for (const { id, evidence } of checks) for (const raw of ['\u001b', '\u009b']) expect(evidence, id).not.toContain(raw)
    expect(checks.find(({ id }) => id === 'valid-sign-in')!.evidence).toBe(shown)
    expect(checks.find(({ id }) => id === 'alg-none')!.evidence).toBe(shown)
  })

  it('--help exits 0; a missing or unknown option exits 2 and names it', async () => {
    expect(await command(['--help'])).toMatchObject({
      exitCode: 0,
      out: expect.stringMatching(/^Usage: service-auth-mock check-controller --controller URL --identity ID/),
    })
    const missing = await command(['--controller', 'http://127.0.0.1:9/auth/controller'], { SERVICE_KEY: 'k' })
    expect(missing.exitCode).toBe(2)
    expect(missing.err).toMatch(/^Missing: --identity, --service \(or SERVICE_URL\), --secret \(or SERVICE_SECRET\)\.\n\nUsage:/)
    const unknown = await command(['--controler', 'x'])
    expect(unknown.exitCode).toBe(2)
    expect(unknown.err).toContain("Unknown option '--controler'")
  })

  it("from JavaScript, the same reasons name checkController's options as written, not the command's flags", async () => {
    const { url, key, secret } = await connectMockService({ url: service.url, isolate: true })
    const options = { controller: '/auth/controller', identity: ADA, service: url, key, secret }
    await expect(checkController(options)).rejects.toThrow(/^controller must be an absolute http\(s\) URL, not "\/auth\/controller"$/)
    const nothing = { ...options, controller: 'http://127.0.0.1:9/auth/controller' }
    await expect(checkController({ ...nothing, secret: 'not Base64' })).rejects.toThrow(/^secret: The API secret is not Base64 text\.$/)
    // Shorter than the service issues: service-auth/server would refuse it, so the check does too, before it asks anything of the mock.
    await expect(checkController({ ...nothing, secret: 'c2hvcnQ=' })).rejects.toThrow(
      /^secret: The API secret decodes to 5 bytes; it must be at least 32, as the service issues it\. Is it a placeholder or cut short\? Make one with /,
    )
    // Of another type, it says which, and never shows the value.
    await expect(checkController({ ...nothing, secret: 5 as unknown as string })).rejects.toThrow(
      /^secret: The API secret is not Base64 text: it must be a string, not a number\.$/,
    )
    await expect(checkController({ ...nothing, secret: Buffer.from(secret) as unknown as string })).rejects.toThrow(/^secret: .*, not an object\.$/)
    await expect(checkController({ ...nothing, service: '127.0.0.1:8081' })).rejects.toThrow(/^service must be an absolute http\(s\) URL/)
    const { args } = await app()
    await expect(checkController({ ...options, controller: args[1]!, secret: generateCredentials().apiSecret })).rejects.toThrow(
      /with its secret \(401: .+\): are key and secret the controller's\?$/,
    )
  })

  it.concurrent('an --identity the store does not know: the fix names the option as the caller wrote it, --identity or identity', async () => {
    const { args, env } = await app()
    const stranger = 'nobody@example.com'
    const withStranger = args.map((arg) => (arg === ADA ? stranger : arg))
    const fix = (name: string) => `Is ${stranger} a user your store lets sign in? Name one with ${name}, or add it to your store.`
    const { exitCode, out } = await command([...withStranger, '--json'], env)
    expect(exitCode).toBe(1)
    expect(JSON.parse(out).checks[0]).toMatchObject({ id: 'valid-sign-in', outcome: 'fail', fix: fix('--identity') })
    const { checks } = await checkController({
      controller: withStranger[1]!,
      identity: stranger,
      signedIn: withStranger[5]!,
      service: env.SERVICE_URL,
      key: env.SERVICE_KEY,
      secret: env.SERVICE_SECRET,
    })
    expect(checks[0]).toMatchObject({ id: 'valid-sign-in', outcome: 'fail', fix: fix('identity') })
  })

  it('exits 2, saying why, when it cannot run: no controller there, a wrong secret, a mock without knobs, a page that takes anyone for signed in', async () => {
    const { args, env } = await app()
    const controller = args[1]!
    const nothing = await freePortUrl()
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ['--controller', `${nothing}/auth/controller`, '--identity', ADA],
        env,
        /^The check could not run: the controller at http:\/\/127\.0\.0\.1:\d+\/auth\/controller gave no answer \(ECONNREFUSED\): is the app running there\?$/,
      ],
      [
        args,
        { ...env, SERVICE_SECRET: generateCredentials().apiSecret },
        /refused the key mock-\S+ with its secret \(401: .+\): are --key \(or SERVICE_KEY\) and --secret \(or SERVICE_SECRET\) the controller's\?$/,
      ],
      [args, { ...env, SERVICE_SECRET: 'not Base64' }, /^The check could not run: --secret \(or SERVICE_SECRET\): The API secret is not Base64 text\.$/],
      [
        args,
        { ...env, SERVICE_SECRET: 'changeme' },
        /^The check could not run: --secret \(or SERVICE_SECRET\): The API secret decodes to 6 bytes; it must be at least 32, as the service issues it\. Is it a placeholder or cut short\? Make one with `openssl rand -base64 32`/,
      ],
      [args, { ...env, SERVICE_URL: nothing }, /^The check could not run: the mock service at http:\/\/127\.0\.0\.1:\d+ cannot be reached \(ECONNREFUSED\)\.$/],
      // Named as the command's option, not as createClient's (baseUrl), nor as checkController's (service).
      [
        args,
        { ...env, SERVICE_URL: '127.0.0.1:8081' },
        /^The check could not run: --service \(or SERVICE_URL\) must be an absolute http\(s\) URL, not "127\.0\.0\.1:8081"\.$/,
      ],
      [
        ['--controller', '/auth/controller', '--identity', ADA],
        env,
        /^The check could not run: --controller must be an absolute http\(s\) URL, not "\/auth\/controller"\.$/,
      ],
      [
        ['--controller', controller, '--identity', ADA, '--signed-in', 'http://localhost:1/welcome'],
        env,
        /^The check could not run: --signed-in http:\/\/localhost:1\/welcome is not on the controller's host, 127\.0\.0\.1: /,
      ],
      // A page that answers 200 to anyone (the mock's settings) cannot tell a session.
      [
        ['--controller', controller, '--identity', ADA, '--signed-in', `${service.url}/__knobs/config`],
        env,
        /the signed-in page http:\S+ answered 200 to a browser that is not signed in: name a page that answers 2xx only to a signed-in browser\.$/,
      ],
    ]
    for (const [given, environment, message] of cases) {
      const { exitCode, err } = await command(given, environment)
      expect(exitCode, given.join(' ')).toBe(2)
      expect(err).toMatch(message)
    }
    // With --json, the reason is JSON too, on the output.
    const json = await command([...cases[0]![0], '--json'], env)
    expect(json).toMatchObject({ exitCode: 2, err: '' })
    expect(JSON.parse(json.out)).toEqual({ error: expect.stringMatching(/^the controller at \S+ gave no answer \(ECONNREFUSED\)/) })

    const { apiKey, apiSecret } = generateCredentials()
    const withoutKnobs = await startService({ port: 0, keys: [{ key: apiKey, secret: apiSecret }], knobs: false })
    try {
      const { exitCode, err } = await command(args, { SERVICE_URL: withoutKnobs.url, SERVICE_KEY: apiKey, SERVICE_SECRET: apiSecret })
      expect(exitCode).toBe(2)
      expect(err).toBe(
        `The check could not run: the mock service at ${withoutKnobs.url} has no knobs: start it with them on (not --no-knobs, not SERVICE_KNOBS=0).`,
      )
    } finally {
      await withoutKnobs.close()
    }
  })

  it('as a process, exits with the code, and leaves nothing running', async () => {
    const { args, env } = await app('accepts alg: none')
    const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli, 'check-controller', ...args, '--json'], {
      env: { ...process.env, ...env },
    }).catch((error: { code: number; stdout: string }) => error)
    expect('code' in result && result.code).toBe(1)
    expect((JSON.parse(result.stdout) as { checks: { id: string; outcome: string }[] }).checks.filter(({ outcome }) => outcome === 'fail')).toEqual([
      expect.objectContaining({ id: 'alg-none' }),
    ])
  }, 30_000)
})

/** The URL of a port nothing listens on. */
async function freePortUrl(): Promise<string> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}
