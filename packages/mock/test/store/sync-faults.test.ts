// @vitest-environment node
// A disk that fails a commit's flush: fdatasync() answers ENOSPC (a file system that finds out it
// is full only when it writes the data back: NFS, a thin volume, copy-on-write) or EIO, through a
// library preloaded into the service (fail-sync.c, built here with the C compiler; skipped, with
// the reason, where there is none). The data file's room (data-file-room.ts) cannot prevent this.
// The change whose flush failed is answered 507, never as stored; the service stays up, reads go
// on, and every change after it is refused too until a restart, since LMDB has made the failed
// commit part of what later commits build on, with the way out (--export, then --import into a
// new directory); a stop ends cleanly; a restart has every acknowledged record.
import { execFile, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rmSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, ServiceError } from 'service-auth/server'
import { builtServiceCommand, startServiceProcess, type ServiceCommand, type ServiceProcess } from './service-process.js'

const run = promisify(execFile)
const SOURCE = fileURLToPath(new URL('./fail-sync.c', import.meta.url))
const key = `sync-${randomBytes(4).toString('hex')}`
const secret = randomBytes(32).toString('base64')

let work: string
let command: ServiceCommand
/** The preloaded library, or why there is none. */
let library: { path: string } | { skip: string }
const running: ServiceProcess[] = []

/** fail-sync.c as a shared library in `dir`, or why it cannot be built here. */
function buildLibrary(dir: string): { path: string } | { skip: string } {
  if (process.platform !== 'linux') return { skip: `LD_PRELOAD replaces fdatasync on Linux only, and this is ${process.platform}` }
  const path = join(dir, 'fail-sync.so')
  try {
    execFileSync('cc', ['-shared', '-fPIC', '-o', path, SOURCE, '-ldl'], { stdio: ['ignore', 'ignore', 'pipe'] })
    return { path }
  } catch (error) {
    return { skip: `no C compiler (cc) to build fail-sync.c: ${String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()}` }
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-sync-'))
  library = buildLibrary(work)
  command = await builtServiceCommand(work)
  await writeFile(join(work, 'config.json'), JSON.stringify({ rateLimit: 0, browserRateLimit: 0 }))
}, 120_000)

afterAll(async () => {
  for (const service of running) {
    if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL')
    await service.exited
  }
  if (work) await rm(work, { recursive: true, force: true })
})

async function start(dataDir: string, preload: string | undefined, flag: string): Promise<ServiceProcess> {
  const env: Record<string, string> = { SERVICE_CONFIG: join(work, 'config.json'), SERVICE_API_KEY: key, SERVICE_API_SECRET: secret, FAIL_SYNC_FLAG: flag }
  if (preload) env.LD_PRELOAD = preload
  const service = await startServiceProcess(['--data', dataDir], env, { command })
  running.push(service)
  return service
}

/** The enrolment's answer: 'stored', or the 507's detail; anything else (a dropped connection, a 500) throws. */
async function enrol(api: ReturnType<typeof createClient>, identifier: string): Promise<string> {
  try {
    await api.enroll({ identifier })
    return 'stored'
  } catch (error) {
    if (error instanceof ServiceError && error.status === 507) return error.detail ?? ''
    throw error
  }
}

describe('a data directory whose disk fails a flush', () => {
  it.for(['ENOSPC', 'EIO'])(
    'with %s: that change is a 507, the service stays up and refuses changes until a restart, stops cleanly, and keeps what it acknowledged',
    { timeout: 60_000 },
    async (errno, context) => {
      if ('skip' in library) return context.skip(library.skip)
      const dataDir = join(work, `data-${errno}`)
      const flag = join(work, `fail-${errno}`)
      const service = await start(dataDir, library.path, flag)
      const api = createClient({ baseUrl: service.url, key, secret })

      expect(await enrol(api, 'before@example.com')).toBe('stored')
      writeFileSync(flag, errno)
      const cause = errno === 'EIO' ? 'Input/output error' : 'its disk is full'
      expect(await enrol(api, 'failed@example.com')).toMatch(new RegExp(`^The change cannot be stored in ${escaped(dataDir)}: .*${cause}`))
      rmSync(flag)

      // The disk takes flushes again, but what LMDB shows may not all be on it: no change is taken
      // until a restart, and none is acknowledged as stored. Since the data file may not be whole,
      // the way out is a new directory, through the command's --export and --import.
      const refused = await enrol(api, 'after@example.com')
      expect(refused).toMatch(new RegExp(`^The change cannot be stored in ${escaped(dataDir)}: .*Changes are refused until the service is restarted`))
      expect(refused).toMatch(
        new RegExp(
          `its data file may not be whole: fix the disk \\(free some space, say\\), then export its state with --data ${escaped(dataDir)} --export FILE ` +
            'and start the service on a new directory with --data DIR --import FILE, rather than go on with this one\\.$',
        ),
      )
      // Reads go on; the process is alive.
      expect((await api.identities.get('before@example.com')).identifier).toBe('before@example.com')
      expect(service.child.exitCode).toBe(null)

      // Ctrl-C: it stops, and by itself (lmdb-js never settles the flush of a failed commit).
      service.child.kill('SIGINT')
      expect(await service.exited).toBe(0)

      const restarted = await start(dataDir, undefined, flag)
      const again = createClient({ baseUrl: restarted.url, key, secret })
      expect((await again.identities.get('before@example.com')).identifier).toBe('before@example.com')
      await expect(again.identities.get('after@example.com')).rejects.toMatchObject({ status: 404 })
      expect(await enrol(again, 'after@example.com')).toBe('stored')
      restarted.child.kill('SIGINT')
      expect(await restarted.exited).toBe(0)
    },
  )
})

describe('a store whose last commit fails its flush', () => {
  it('says so from stored(), refuses changes, and closes: it does not wait for a flush lmdb-js never settles', { timeout: 30_000 }, async (context) => {
    if ('skip' in library) return context.skip(library.skip)
    const script = fileURLToPath(new URL('./failing-flush-store.ts', import.meta.url))
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, join(work, 'store'), join(work, 'fail-store')], {
      env: { ...process.env, LD_PRELOAD: library.path, FAIL_SYNC_FLAG: join(work, 'fail-store') },
    })
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      stored: 'refused: full',
      refusal: 'full',
      // A caller in JavaScript has no flags: the way out is named in the store's own calls.
      message: expect.stringContaining(
        `then export the state of ${join(work, 'store')} with the store's export() and import it with import() into a store of a new directory (openDataStore), rather than go on with this one.`,
      ),
      closed: 'closed',
    })
  })
})

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
