// @vitest-environment node
// The `service-auth-mock` command: it starts the service, prints what to copy, serves the API, the
// knobs and the test keys; --help, mistakes and bad settings end with what they say and their
// exit codes. Once as a process too (its source, through tsx, as `npm run service` runs it), to
// see Ctrl-C stop it.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { BAD_PORTS } from '../../src/common/bad-ports.js'
import { runCommand } from '../../src/command/command-line.js'
import { isRefusedPort } from '../../src/testing/check-controller/refused-ports.js'

/** Runs the command in this process; what it wrote, and how it ended. */
const command = (...args: string[]) => commandWith({}, ...args)

/** The same, with these environment variables. */
async function commandWith(env: Record<string, string>, ...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const result = await runCommand(args, env, { log: (text) => out.push(text), error: (text) => err.push(text) })
  return { result, out: out.join('\n'), err: err.join('\n') }
}

const SECRET = Buffer.alloc(32, 7).toString('base64')

describe('service-auth-mock', () => {
  it('listens on 127.0.0.1 with knobs and test keys, and prints the service first', async () => {
    const { result, out } = await command('--port', '0', '--in-memory')
    if (!('service' in result)) throw new Error(`no service: ${JSON.stringify(result)}`)
    try {
      const url = result.service.url
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(out.split('\n')[0]).toBe(`Service: ${url}`)
      expect(out).toContain(`\nSERVICE_URL=${url}\n`)
      expect((await fetch(`${url}/__knobs/challenges`)).status).toBe(200)
      const created = await fetch(`${url}/v1/entity/challenges`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ key: 'test-signs' }),
      })
      expect(created.status).toBe(201)
    } finally {
      await result.close()
    }
  })

  it('--help exits 0 with the usage; a wrong option or command exits 2 and says what was wrong', async () => {
    expect(await command('--help')).toMatchObject({ result: { exitCode: 0 }, out: expect.stringMatching(/^Usage: service-auth-mock \[options\]/) })
    for (const [args, message, usage] of [
      [['--prot', '1'], "Unknown option '--prot'", 'Usage: service-auth-mock'],
      [['serve'], "Unexpected argument 'serve'", 'Usage: service-auth-mock'],
    ] as const) {
      const { result, err } = await command(...args)
      expect(result, args.join(' ')).toEqual({ exitCode: 2 })
      expect(err).toContain(message)
      expect(err).toContain(usage)
    }
  })

  it('a bad setting exits 1 with a message that names it', async () => {
    expect(await command('--port', '99999')).toEqual({ result: { exitCode: 1 }, out: '', err: '--port "99999" must be a port number from 0 to 65535.' })
    expect((await command('--port', '0', '--in-memory', '--base-url', 'ftp://x')).err).toBe('baseUrl must be an http(s) URL without query, not ftp://x.')
  })

  it('a value of SERVICE_KNOBS but 1, true, 0 or false exits 1 naming it, rather than leave the knobs on; false turns them off', async () => {
    for (const value of ['off', 'no', 'yes']) {
      expect(await commandWith({ SERVICE_KNOBS: value }, '--port', '0', '--in-memory')).toEqual({
        result: { exitCode: 1 },
        out: '',
        err: `SERVICE_KNOBS "${value}" must be 1 or true (on), or 0 or false (off).`,
      })
    }
    const { result, out } = await commandWith({ SERVICE_KNOBS: 'false' }, '--port', '0', '--in-memory')
    if (!('service' in result)) throw new Error(`no service: ${JSON.stringify(result)}`)
    try {
      expect(out).toContain('\nKnobs: off\n')
      expect((await fetch(`${result.service.url}/__knobs/config`)).status).toBe(404)
    } finally {
      await result.close()
    }
  })

  it("SERVICE_ALLOWED_ORIGINS with a trailing slash is the page's origin: it is printed so, and a page there creates challenges", async () => {
    const env = { SERVICE_API_KEY: 'slash', SERVICE_API_SECRET: SECRET, SERVICE_ALLOWED_ORIGINS: 'http://127.0.0.1:3000/' }
    const { result, out } = await commandWith(env, '--port', '0', '--in-memory')
    if (!('service' in result)) throw new Error(`no service: ${JSON.stringify(result)}`)
    try {
      expect(out).toContain('\nAPI key: slash  origins: http://127.0.0.1:3000  permissions: all\n')
      const created = await fetch(`${result.service.url}/v1/entity/challenges`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: 'http://127.0.0.1:3000' },
        body: JSON.stringify({ key: 'slash' }),
      })
      expect(created.status).toBe(201)
      expect(created.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000')
    } finally {
      await result.close()
    }
  })

  it('an origin that no page can have, or a secret shorter than the service issues, exits 1 naming the setting and the right form', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-auth-cli-'))
    try {
      const config = join(dir, 'service.json')
      writeFileSync(config, JSON.stringify({ keys: [{ key: 'shop', secret: 'c2hvcnQ=', allowedOrigins: ['http://127.0.0.1:3000'] }] }))
      const slashed = join(dir, 'slashed.json')
      writeFileSync(slashed, JSON.stringify({ keys: [{ key: 'shop', secret: SECRET, allowedOrigins: ['http://127.0.0.1:3000/login'] }] }))
      const makeOne = "Make one with `openssl rand -base64 32` or `node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"`."
      for (const [env, err] of [
        [
          { SERVICE_API_KEY: 'slash', SERVICE_ALLOWED_ORIGINS: '127.0.0.1:3000' },
          'SERVICE_ALLOWED_ORIGINS "127.0.0.1:3000" is not an origin: it has no scheme. Write http://127.0.0.1:3000.',
        ],
        [
          { SERVICE_CONFIG: slashed },
          `${slashed}: keys[0].allowedOrigins[0] "http://127.0.0.1:3000/login" is not an origin: it has a path. Write http://127.0.0.1:3000.`,
        ],
        [
          { SERVICE_API_SECRET: 'changeme' },
          `SERVICE_API_SECRET: The API secret decodes to 6 bytes; it must be at least 32, as the service issues it. Is it a placeholder or cut short? ${makeOne}`,
        ],
        [
          { SERVICE_CONFIG: config },
          `${config}: keys[0].secret: The API secret decodes to 5 bytes; it must be at least 32, as the service issues it. Is it a placeholder or cut short? ${makeOne}`,
        ],
      ] as const) {
        expect(await commandWith(env, '--port', '0', '--in-memory'), JSON.stringify(env)).toEqual({ result: { exitCode: 1 }, out: '', err })
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("a port in use exits 1 with one line naming the port and the way out, not Node's EADDRINUSE", async () => {
    const taken = createServer().listen(0, '127.0.0.1')
    await once(taken, 'listening')
    const { port } = taken.address() as AddressInfo
    try {
      expect(await command('--port', String(port), '--in-memory')).toEqual({
        result: { exitCode: 1 },
        out: '',
        err: `Port ${port} on 127.0.0.1 is in use (another service-auth-mock?): stop what listens there, or choose another with --port (0 picks a free one).`,
      })
    } finally {
      taken.close()
    }
  })

  it('on a port browsers refuse (6000, …) it starts, and warns on stderr naming the port and the way to another', async () => {
    const REACH =
      "the service answers there (curl reaches it), but a login page's embed never can, nor can anything that uses fetch (the test kit, KnobClient, check-controller)."
    const advice = 'Choose another with --port (or SERVICE_PORT, or "port" in the config file): the default, 8081, or 0 for a free one.'
    // The first of these that is free here: on a shared machine, any one may be taken.
    let warned = false
    for (const port of [6000, 6566, 10080]) {
      const { result, out, err } = await command('--port', String(port), '--in-memory')
      if (!('service' in result)) {
        expect(err).toContain(`Port ${port} on 127.0.0.1 is in use`)
        continue
      }
      try {
        expect(out.split('\n')[0]).toBe(`Service: http://127.0.0.1:${port}`)
        expect(err).toBe(`Warning: port ${port} is one browsers and fetch refuse to connect to (a "bad port" of the Fetch standard): ${REACH} ${advice}`)
      } finally {
        await result.close()
      }
      warned = true
      break
    }
    expect(warned, 'none of the bad ports tried was free').toBe(true)

    // Behind a proxy, the port browsers use is the public base URL's.
    const proxied = await command('--port', '0', '--in-memory', '--base-url', 'http://localhost:6665')
    if (!('service' in proxied.result)) throw new Error(`no service: ${proxied.err}`)
    await proxied.result.close()
    expect(proxied.err).toBe(
      `Warning: port 6665 is one browsers and fetch refuse to connect to (a "bad port" of the Fetch standard): ${REACH} Give the public base URL another port, with --base-url (or SERVICE_BASE_URL, or "baseUrl" in the config file).`,
    )
    // A free port, or a proxy on a usable one, says nothing.
    for (const args of [[], ['--base-url', 'https://mock.example.com']]) {
      const { result, err } = await command('--port', '0', '--in-memory', ...args)
      if ('service' in result) await result.close()
      expect(err, args.join(' ')).toBe('')
    }
  })

  it("the bad ports it warns of are Node's fetch's own: fetch refuses each before connecting", async () => {
    for (const port of BAD_PORTS) {
      const refused = await fetch(`http://127.0.0.1:${port}/`).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(isRefusedPort(refused), `port ${port}`).toBe(true)
    }
  })

  it('as a process, Ctrl-C stops it cleanly', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../src/cli.ts', import.meta.url)), '--port', '0', '--in-memory'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const lines: string[] = []
    const output = createInterface({ input: child.stdout! })
    await new Promise<void>((resolve) =>
      output.on('line', (line) => {
        lines.push(line)
        if (line === 'Ctrl-C stops it.') resolve()
      }),
    )
    const url = /^Service: (\S+)$/.exec(lines[0]!)![1]
    expect((await fetch(`${url}/__knobs/challenges`)).status).toBe(200)
    const [exited, closed] = [once(child, 'exit'), once(output, 'close')]
    child.kill('SIGINT')
    expect(await exited).toEqual([0, null])
    await closed
    expect(lines.at(-1)).toBe('Stopped.')
  }, 30_000)
})
