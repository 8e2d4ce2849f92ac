// @vitest-environment node
// A data directory has one owner, known for certain: a service killed with -9 gives it up at
// once, even while its parent leaves it a zombie, and whatever pid was recorded for it, live or
// not, holds nothing; while the owner runs, a second service is refused with the owner's pid, and
// --export reads beside it.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { readFileSync, statSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { open } from 'lmdb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from 'service-auth/server'
import { openDataStore } from '../../src/store/open-store.js'
import { readPrinted, runServiceCommand, serviceCommand, serviceEnv, startServiceProcess, type ServiceProcess } from './service-process.js'

const key = `owner-${randomBytes(4).toString('hex')}`
const secret = randomBytes(32).toString('base64')
const env = { SERVICE_API_KEY: key, SERVICE_API_SECRET: secret }

let work: string
let made = 0
const running: ChildProcess[] = []
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-owner-'))
})
afterAll(async () => {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await once(child, 'exit')
    }
  }
  await rm(work, { recursive: true, force: true })
})
const newDir = () => join(work, `dir-${++made}`)

async function start(dir: string): Promise<ServiceProcess> {
  const service = await startServiceProcess(['--data', dir], env)
  running.push(service.child)
  return service
}

const api = (service: { url: string }) => createClient({ baseUrl: service.url, key, secret })

/** The state letter the system gives the process (Z: a zombie), or undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    // /proc/PID/stat: "pid (command) state ...", and the command may hold spaces and brackets.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
  } catch {
    return undefined
  }
}

/** What the claim before the socket asked: whether kill(pid, 0) finds a process. */
function answersKill0(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Sets the pid the directory's meta data names as its owner, as the pid claim read it. */
async function recordOwnerPid(dir: string, pid: number): Promise<void> {
  const env = open({ path: join(dir, 'state.mdb'), noSubdir: true, maxDbs: 64 })
  const meta = env.openDB<{ pid: number }, string>({ name: 'meta', encoding: 'json' })
  meta.putSync('owner', { ...meta.get('owner'), pid })
  await env.close()
}

describe('a data directory whose service was killed with -9', () => {
  it.runIf(process.platform === 'linux')('is taken over at once while the killed service is a zombie its parent never reaps', { timeout: 60_000 }, async () => {
    const dir = newDir()
    // The parent: a shell that starts the service in the background, says its pid, and becomes
    // `sleep`, which never waits for a child. The sleep writes nowhere, so the pipes close when
    // the service dies, and not before. (The sleep is the zombie's parent, not a wait of the test's.)
    const parent = spawn('sh', ['-c', '"$@" & echo "service pid $!"; exec sleep 3600 >/dev/null 2>&1', 'sh', ...serviceCommand(['--data', dir])], {
      env: serviceEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.push(parent)
    const printed = readPrinted(parent)
    const [url, [, pidText]] = await Promise.all([printed.banner, printed.line(/^service pid (\d+)$/)])
    const pid = Number(pidText)
    await api({ url }).enroll({ identifier: 'ada@example.com' })

    const closed = once(parent.stdout!, 'end')
    process.kill(pid, 'SIGKILL')
    await closed
    await expect.poll(() => processState(pid)).toBe('Z')
    // What fooled the pid claim: a zombie answers kill(pid, 0).
    expect(answersKill0(pid)).toBe(true)

    const restarted = await start(dir)
    expect((await api(restarted).identities.get('ada@example.com')).identifier).toBe('ada@example.com')
    // Still a zombie: the start did not wait for it to be reaped.
    expect(processState(pid)).toBe('Z')
  })

  it('is taken over at once though the pid it recorded now belongs to another live process', { timeout: 60_000 }, async () => {
    const dir = newDir()
    const first = await start(dir)
    await api(first).enroll({ identifier: 'grace@example.com' })
    first.child.kill('SIGKILL')
    await first.exited
    // A container restarted, and its pid went to someone else: here, the test's own process.
    await recordOwnerPid(dir, process.pid)
    expect(answersKill0(process.pid)).toBe(true)

    const restarted = await start(dir)
    expect((await api(restarted).identities.get('grace@example.com')).identifier).toBe('grace@example.com')
  })
})

describe('a data directory whose service runs', () => {
  it("is exported beside it, and refused to a second service with the first one's pid", { timeout: 60_000 }, async () => {
    const dir = newDir()
    const owner = await start(dir)
    await api(owner).enroll({ identifier: 'ada@example.com' })
    const file = join(work, 'beside.json')
    const exported = await runServiceCommand(['--data', dir, '--export', file])
    expect(exported.code).toBe(0)
    expect(exported.output).toMatch(/^Exported \d+ records from .+ to .+\.\n$/)
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).collections)).toContain('identities')

    // The export took nothing: the owner still holds the directory.
    expect(await runServiceCommand(['--data', dir])).toEqual({
      code: 1,
      signal: null,
      output: `${dir} is in use by another running service (process ${owner.child.pid}). Stop it, or name another directory with --data.\n`,
    })
    // From JavaScript, which has no --data: what to pass instead, to what.
    await expect(openDataStore(dir)).rejects.toThrow(
      `${dir} is in use by another running service (process ${owner.child.pid}). Stop it, or pass another directory to openDataStore.`,
    )
    expect(statSync(join(dir, 'owner.sock')).isSocket()).toBe(true)

    // Stopped, it gives the directory up, and leaves no socket behind.
    owner.child.kill('SIGTERM')
    expect(await owner.exited).toBe(0)
    expect(() => statSync(join(dir, 'owner.sock'))).toThrow(/ENOENT/)
    const next = await start(dir)
    expect((await api(next).identities.get('ada@example.com')).identifier).toBe('ada@example.com')
  })
})
