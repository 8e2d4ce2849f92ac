// @vitest-environment node
// The `service-auth` command as a process (its source, through tsx, as `npm run service` runs
// it): `mock` starts the service, prints what to copy, serves the API, the knobs and the test
// keys, and Ctrl-C stops it; mistakes exit 2 with the usage.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const CLI = ['--import', 'tsx', 'src/testing/cli.ts']

describe('service-auth', () => {
  it('mock: listens on 127.0.0.1 with knobs and test keys, until Ctrl-C', async () => {
    const child = spawn(process.execPath, [...CLI, 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
    const lines: string[] = []
    for await (const line of createInterface({ input: child.stdout! })) {
      lines.push(line)
      if (line === 'Ctrl-C stops it.') break
    }
    const url = /^Service: (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0]!)?.[1]
    expect(url).toBeDefined()
    expect(lines).toContain(`SERVICE_URL=${url}`)
    expect((await fetch(`${url}/__knobs/challenges`)).status).toBe(200)
    const created = await fetch(`${url}/v1/entity/challenges`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key: 'test-signs' }) })
    expect(created.status).toBe(201)

    const exited = once(child, 'exit')
    child.kill('SIGINT')
    expect(await exited).toEqual([0, null])
  }, 30_000)

  it('--help exits 0 with the usage; a wrong option or command exits 2 and says what was wrong', async () => {
    expect((await run(process.execPath, [...CLI, 'mock', '--help'])).stdout).toMatch(/^Usage: service-auth mock \[options\]/)
    expect((await run(process.execPath, [...CLI, '--help'])).stdout).toMatch(/^Usage: service-auth <command>/)
    for (const [args, message] of [
      [['mock', '--prot', '1'], "Unknown option '--prot'"],
      [['serve'], 'Unknown command "serve".'],
    ] as const) {
      const failed = await run(process.execPath, [...CLI, ...args]).catch((error) => error)
      expect(failed.code, args.join(' ')).toBe(2)
      expect(failed.stderr).toContain(message)
      expect(failed.stderr).toContain('Usage: service-auth')
    }
  }, 30_000)

  it('a bad setting exits 1 with a message that names it', async () => {
    const failed = await run(process.execPath, [...CLI, 'mock', '--port', '99999']).catch((error) => error)
    expect(failed.code).toBe(1)
    expect(failed.stderr.trim()).toBe('--port "99999" must be a port number from 0 to 65535.')
  }, 30_000)
})
