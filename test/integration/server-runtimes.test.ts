// @vitest-environment node
// service-auth/server's handleFetchRequest on every server runtime the README's table names:
// Node, Bun, Deno and Cloudflare's workerd, each installed from the npm registry (devDependencies),
// each serving the built package (runtimes/*.mjs) on a port the system picks, against the mock
// service. Each signs Ada in and refuses two tokens, and its own log says why. Every wait is on an
// event (the port announced, a log line), never on time.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stopProcess } from '../../e2e/processes.js'
import { useMock } from './mock.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const runtimes = join(root, 'test/integration/runtimes')
const bin = (name: string) => join(root, 'node_modules/.bin', name)

const service = useMock()

/** A runtime serving the controller: how to start it, and the version it reports. */
interface Runtime {
  name: string
  /** The command and its arguments, run in runtimes/; `controlFd` when the port is told on fd 3 (workerd). */
  command(env: Record<string, string>): Promise<{ file: string; args: string[]; controlFd?: boolean }>
  version(): Promise<string>
}

let scratch: string

const RUNTIMES: Runtime[] = [
  {
    name: 'Node.js',
    command: async () => ({ file: process.execPath, args: ['node.mjs'] }),
    version: async () => process.versions.node,
  },
  {
    name: 'Bun',
    command: async () => ({ file: bin('bun'), args: ['bun.mjs'] }),
    version: async () => (await output(bin('bun'), ['--version'])).trim(),
  },
  {
    name: 'Deno',
    // Only what the controller needs: the three variables, and the network on 127.0.0.1.
    command: async () => ({ file: bin('deno'), args: ['run', '--allow-env=SERVICE_URL,SERVICE_KEY,SERVICE_SECRET', '--allow-net=127.0.0.1', 'deno.mjs'] }),
    version: async () => /^deno (\S+)/.exec(await output(bin('deno'), ['--version']))![1]!,
  },
  {
    name: 'Cloudflare workerd',
    command: async (env) => ({ file: bin('workerd'), args: ['serve', await workerdConfig(env), '--control-fd=3'], controlFd: true }),
    // workerd reports its build date; the npm package that ships it has the version.
    version: async () => JSON.parse(await readFile(join(root, 'node_modules/workerd/package.json'), 'utf8')).version,
  },
]

beforeAll(async () => {
  if (!existsSync(join(root, 'packages/service-auth/dist/server.mjs'))) throw new Error('The runtimes serve the built package: run `npm run build` first.')
  scratch = await mkdtemp(join(tmpdir(), 'service-auth-runtimes-'))
})
afterAll(() => rm(scratch, { recursive: true, force: true }))

describe.each(RUNTIMES)('handleFetchRequest on $name', (runtime) => {
  let server: Served

  beforeAll(async () => {
    server = await serve(runtime, { SERVICE_URL: service.url, SERVICE_KEY: service.key.key, SERVICE_SECRET: service.key.secret })
  })
  afterAll(() => stopProcess(server?.child))

  const call = (token: string) =>
    fetch(`http://127.0.0.1:${server.port}/auth/controller`, {
      headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'X-Service-Auth': token },
    })

  /** A challenge as the embed creates it, signed by the identity's phone: its id and the token the embed hands over. */
  async function signedToken(identifier: string): Promise<{ id: string; token: string }> {
    await service.provisionPhone(identifier)
    const { id } = await service.createChallenge()
    return { id, token: await service.sign(id, identifier) }
  }

  it('signs Ada in: 200 {location} to the XHR, the session cookie, the challenge consumed at the service', async () => {
    const { id, token } = await signedToken('ada@example.com')
    const res = await call(token)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ location: '/welcome' })
    expect(res.headers.get('set-cookie')).toMatch(/^session=1-[0-9a-f-]{36}; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(await stateOf(id)).toBe('consumed')
  })

  it('refuses a user its store does not know with 403, leaves the challenge unconsumed, and logs why', async () => {
    const { id, token } = await signedToken('eve@example.com')
    const res = await call(token)
    expect(res.status).toBe(403)
    expect(res.headers.get('content-type')).toBe('application/problem+json')
    expect(await res.json()).toMatchObject({ status: 403, title: 'Forbidden', detail: 'This user may not sign in here.' })
    await server.logged('service-auth/server refused a sign-in (403, unknown-user): user eve@example.com not in your store: findUser returned nothing')
    expect(await stateOf(id)).toBe('signed')
  })

  it('refuses a token signed with another secret with 401, and logs why, never the token', async () => {
    const { token } = await signedToken('ada@example.com')
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
    const forged = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(crypto.getRandomValues(new Uint8Array(32)))
    const res = await call(forged)
    expect(res.status).toBe(401)
    await server.logged('service-auth/server refused a sign-in (401, signature): token not signed with this secret: does SERVICE_SECRET match the key?')
    expect(server.lines.some((line) => line.includes(forged) || line.includes(token))).toBe(false)
  })
})

describe("the README's runtime table", () => {
  it.each(RUNTIMES)('names $name at the version tested here', async (runtime) => {
    const readme = await readFile(join(root, 'packages/service-auth/README.md'), 'utf8')
    const row = readme.split('\n').find((line) => line.startsWith(`| ${runtime.name} |`))
    expect(row, runtime.name).toBeDefined()
    const version = await runtime.version()
    // Node's is the one installed, which CI and each machine choose: the table names its major version.
    expect(row).toContain(runtime.name === 'Node.js' ? `| ${version.split('.')[0]} ` : `| ${version} |`)
  })
})

interface Served {
  child: ChildProcess
  port: number
  /** Every line the runtime wrote, stdout and stderr. */
  lines: string[]
  /** Resolves once the runtime has written this line. */
  logged(line: string): Promise<void>
}

/** Starts the runtime and resolves once it has said which port it listens on. */
async function serve(runtime: Runtime, env: Record<string, string>): Promise<Served> {
  const { file, args, controlFd } = await runtime.command(env)
  const child = spawn(file, args, {
    cwd: runtimes,
    // No update check (Deno's would go to the network) and no telemetry.
    env: { ...process.env, ...env, DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1' },
    stdio: ['ignore', 'pipe', 'pipe', ...(controlFd ? ['pipe' as const] : [])],
  })
  const log = new Lines([child.stdout!, child.stderr!], child, runtime.name)
  const port = controlFd
    ? // workerd tells its port on its control channel: {"event":"listen","socket":"http","port":…}.
      await new Lines([child.stdio[3] as Readable], child, runtime.name).first((line) => {
        const event = JSON.parse(line) as { event: string; port?: number }
        return event.event === 'listen' ? event.port : undefined
      })
    : Number(await log.first((line) => /^listening (\d+)$/.exec(line)?.[1]))
  return { child, port, lines: log.seen, logged: (line) => log.first((seen) => (seen === line || undefined) && true).then(() => {}) }
}

/** The lines a process writes, and the first that matches, as soon as it is written; a rejection if the process ends first. */
class Lines {
  readonly seen: string[] = []
  readonly #waiting = new Set<() => void>()
  readonly #ended: Promise<never>

  constructor(streams: Readable[], child: ChildProcess, name: string) {
    for (const stream of streams) {
      createInterface({ input: stream }).on('line', (line) => {
        this.seen.push(line)
        for (const check of this.#waiting) check()
      })
    }
    this.#ended = new Promise<never>((_, reject) => {
      child.once('exit', (code, signal) => reject(new Error(`${name} ended (${signal ?? code}) before it was stopped:\n${this.seen.join('\n')}`)))
      child.once('error', reject)
    })
    this.#ended.catch(() => {})
  }

  /** The first value `match` gives for a line. */
  first<T>(match: (line: string) => T | undefined): Promise<T> {
    const found = new Promise<T>((resolve) => {
      const check = () => {
        for (const line of this.seen) {
          const value = match(line)
          if (value === undefined) continue
          this.#waiting.delete(check)
          resolve(value)
          return
        }
      }
      this.#waiting.add(check)
      check()
    })
    return Promise.race([this.#ended, found])
  }
}

/** workerd's configuration in the scratch folder, beside the worker bundled with its imports; its path. */
async function workerdConfig(env: Record<string, string>): Promise<string> {
  await build({
    entryPoints: [join(runtimes, 'worker.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    outfile: join(scratch, 'worker.js'),
    logLevel: 'silent',
  })
  const bindings = Object.entries(env).map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
  const config = join(scratch, 'config.capnp')
  await writeFile(
    config,
    `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The mock service is on 127.0.0.1: the worker's fetches may go to loopback addresses only.
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

# No compatibility flags: no nodejs_compat, the helper needs web standards only.
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
  bindings = [${bindings.join(', ')}],
  globalOutbound = "loopback",
);
`,
  )
  return config
}

async function stateOf(id: string): Promise<string> {
  const challenges = await service.knobs.challenges()
  return challenges.find((challenge) => challenge.id === id)!.state
}

/** What a command prints on stdout. */
function output(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } })
    let text = ''
    child.stdout.on('data', (chunk) => (text += chunk))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`${file} ${args.join(' ')} exited ${code}`))))
  })
}
