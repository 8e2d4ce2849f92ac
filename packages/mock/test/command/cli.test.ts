// @vitest-environment node
// The `service-auth-mock` command: it starts the service, prints what to copy, serves the API, the
// knobs and the test keys; --help, mistakes and bad settings end with what they say and their
// exit codes. Once as a process too (its source, through tsx, as `npm run service` runs it), to
// see Ctrl-C stop it.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { type AddressInfo, createServer } from 'node:net'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { BAD_PORTS } from '../../src/common/bad-ports.js'
import { runCommand } from '../../src/command/command-line.js'
import { isRefusedPort } from '../../src/testing/check-controller/refused-ports.js'

/** Runs the command in this process; what it wrote, and how it ended. */
async function command(...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const result = await runCommand(args, {}, { log: (text) => out.push(text), error: (text) => err.push(text) })
  return { result, out: out.join('\n'), err: err.join('\n') }
}

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
