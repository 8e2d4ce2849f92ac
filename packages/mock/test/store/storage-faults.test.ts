// @vitest-environment node
// The data directory's machine in trouble, on real file systems: a 2 MiB tmpfs that fills up, and
// a read-only bind mount (mounts.ts; skipped, with the reason, where mounting is not possible).
// A full disk is answered 507 and lived through: reads go on, and writes are stored again once
// space is freed, with no restart. A start on a full or read-only disk ends with exit 1 and one
// line that names the directory, never with a signal.
import { randomBytes } from 'node:crypto'
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { createClient, ServiceError } from 'service-auth/server'
import { startService } from '../../src/service/server.js'
import { StoreError } from '../../src/store/errors.js'
import { openDataStore } from '../../src/store/open-store.js'
import { checkAnswersAgainstContract } from '../service/contract.js'
import { signRequest } from '../service/helpers.js'
import { bindReadOnly, mountTmpfs, type Mounted } from './mounts.js'
import { builtServiceCommand, runServiceCommand, startServiceProcess, type ServiceCommand, type ServiceProcess } from './service-process.js'
import { identityRecord } from './records.js'

// The answers of the service this process starts (the 507 among them) keep to openapi.yaml.
checkAnswersAgainstContract()

const key = `disk-${randomBytes(4).toString('hex')}`
const secret = randomBytes(32).toString('base64')

let work: string
let command: ServiceCommand
let config: string
const unmounts: (() => void)[] = []
const running: ServiceProcess[] = []

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-disk-'))
  command = await builtServiceCommand(work)
  // No rate limits: the test enrols far more than a person would.
  config = join(work, 'config.json')
  await writeFile(config, JSON.stringify({ rateLimit: 0, browserRateLimit: 0 }))
}, 120_000)

afterAll(async () => {
  for (const service of running) {
    if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL')
    await service.exited
  }
  for (const unmount of unmounts.reverse()) unmount()
  if (work) await rm(work, { recursive: true, force: true })
})

const env = () => ({ SERVICE_CONFIG: config, SERVICE_API_KEY: key, SERVICE_API_SECRET: secret })

/** The mount's directory, or the test skipped with the reason it could not be made. */
function mounted(context: TestContext, mount: Mounted): string {
  if ('skip' in mount) return context.skip(mount.skip)
  unmounts.push(mount.unmount)
  return mount.dir
}

/** Fills the disk of `dir` to the last byte, in one file. */
function fill(dir: string): void {
  const file = join(dir, 'filler')
  const chunk = Buffer.alloc(64 * 1024)
  for (let written = 0; ; written += chunk.length) {
    try {
      writeFileSync(file, chunk, { flag: written === 0 ? 'w' : 'a' })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break
      throw error
    }
  }
  // The last partial chunk, a page at a time.
  const page = Buffer.alloc(4096)
  for (;;) {
    try {
      writeFileSync(file, page, { flag: 'a' })
    } catch {
      break
    }
  }
}

async function start(args: string[]): Promise<ServiceProcess> {
  const service = await startServiceProcess(args, env(), { command })
  running.push(service)
  return service
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('a data directory on a disk that fills up', () => {
  it('answers 507 once the disk is full and lives on, reads go on, an enrolment succeeds once space is freed, and a restart has every acknowledged record', {
    timeout: 240_000,
  }, async (context) => {
    const disk = mounted(context, mountTmpfs(join(work, 'filling'), '2m'))
    // What the test frees later, as a person deletes something when told the disk is full.
    const ballast = join(disk, 'ballast')
    writeFileSync(ballast, Buffer.alloc(512 * 1024))
    const dataDir = join(disk, 'data')
    const service = await start(['--data', dataDir])
    const api = createClient({ baseUrl: service.url, key, secret })

    const acknowledged: string[] = []
    const refusals: ServiceError[] = []
    // In the order the answers came: once full, the service stays full until space is freed.
    const answers: ('stored' | 'refused')[] = []
    let next = 0
    const enrolAll = async () => {
      while (next < 3000) {
        const identifier = `user-${next++}@example.com`
        try {
          await api.enroll({ identifier })
          acknowledged.push(identifier)
          answers.push('stored')
        } catch (error) {
          // Anything but a 507 (a dropped connection, a 500) fails the test.
          if (!(error instanceof ServiceError) || error.status !== 507) throw error
          refusals.push(error)
          answers.push('refused')
        }
      }
    }
    const clients = 4
    await Promise.all(Array.from({ length: clients }, enrolAll))

    expect(acknowledged.length).toBeGreaterThan(1000)
    expect(refusals.length).toBeGreaterThan(0)
    expect(refusals[0]!.detail).toMatch(new RegExp(`^The change cannot be stored: the disk of ${escaped(dataDir)} is full \\(.+\\)\\. Free some space there`))
    // Only the enrolments already under way when it filled may still have been stored after the first refusal.
    expect(answers.slice(answers.indexOf('refused')).filter((answer) => answer === 'stored').length).toBeLessThan(clients)
    expect(service.child.exitCode).toBe(null)
    expect(service.child.signalCode).toBe(null)
    // It said so, once per time it filled, naming the directory.
    await service.line(new RegExp(`the disk of ${escaped(dataDir)} is full`))

    // Reads go on.
    const last = acknowledged.at(-1)!
    expect((await api.identities.get(last)).identifier).toBe(last)
    expect(await api.identities.list({ limit: 5 })).toHaveLength(5)
    // A refused enrolment changed nothing.
    const refused = 'refused@example.com'
    await expect(api.enroll({ identifier: refused })).rejects.toMatchObject({ status: 507 })
    await expect(api.identities.get(refused)).rejects.toMatchObject({ status: 404 })

    // Space freed: the next enrolment succeeds, in the same process.
    rmSync(ballast)
    const after = 'after-freeing@example.com'
    await api.enroll({ identifier: after })
    acknowledged.push(after)
    await service.line(new RegExp(`${escaped(dataDir)} has room again`))

    // A kill -9 and a restart: every acknowledged identity is there.
    service.child.kill('SIGKILL')
    await service.exited
    const restarted = await start(['--data', dataDir])
    const again = createClient({ baseUrl: restarted.url, key, secret })
    const kept = new Set<string>()
    for (let page = 1; ; page++) {
      const identities = await again.identities.list({ page, limit: 1000 })
      for (const identity of identities) kept.add(identity.identifier)
      if (identities.length < 1000) break
    }
    expect(acknowledged.filter((identifier) => !kept.has(identifier))).toEqual([])
  })

  it("answers 507 as openapi.yaml says, a /v1/ change refused before it is made; a knob's change is kept, and stored once there is room", {
    timeout: 60_000,
  }, async (context) => {
    const disk = mounted(context, mountTmpfs(join(work, 'in-process'), '2m'))
    const ballast = join(disk, 'ballast')
    writeFileSync(ballast, Buffer.alloc(512 * 1024))
    const dataDir = join(disk, 'data')
    const store = await openDataStore(dataDir)
    const filler = store.collection<{ text: string }>('outbox')
    // Until it refuses with no write in flight: the room counts a write on its way as taking
    // pages until its promise settles, after LMDB committed it, so a refusal in a burst may end
    // once the burst is stored. The disk's free space is read again at each write, and LMDB's
    // flushes take some between two reads, so the put itself may be the one refused: stored()
    // then rejects with the refusal, which is what this loop waits for.
    const unlessFull = (error: unknown) => {
      if (!(error instanceof StoreError && error.code === 'full')) throw error
    }
    for (let n = 0; ; n++) {
      if (store.refusal()) {
        await store.stored().catch(unlessFull)
        if (store.refusal()) break
      }
      filler.put(`filler-${n}`, { text: 'x'.repeat(2000) }, 'batched')
      if (n % 100 === 0) await store.stored().catch(unlessFull)
    }
    expect(store.refusal()).toMatchObject({ code: 'full' })

    const handle = await startService({ port: 0, keys: [{ key, secret }], knobs: true, store })
    try {
      const path = '/v1/entity/identities/enroll'
      const body = JSON.stringify({ identifier: 'ada@example.com' })
      const authorization = await signRequest({ key: { key, secret }, method: 'POST', url: handle.url + path, body, aud: handle.url })
      const res = await fetch(handle.url + path, { method: 'POST', headers: { Authorization: authorization, 'Content-Type': 'application/json' }, body })
      expect(res.status).toBe(507)
      expect(await res.json()).toMatchObject({
        title: 'Insufficient Storage',
        instance: path,
        detail: expect.stringContaining(`the disk of ${dataDir} is full`),
      })
      // Refused before it was made: no enrollment, no identity.
      expect(await (await fetch(`${handle.url}/__knobs/enrollments`)).json()).toEqual([])

      // A knob's change is made in the running service, answered 507 since it is not stored, and kept.
      const reset = await fetch(`${handle.url}/__knobs/reset`, { method: 'POST' })
      expect(reset.status).toBe(507)
      expect((await reset.json()).detail).toContain(`the disk of ${dataDir} is full`)
      await expect(store.stored()).rejects.toMatchObject({ code: 'full' })

      // Space freed: the next change is stored, and the ones refused meanwhile before it.
      rmSync(ballast)
      const enrolled = await fetch(handle.url + path, {
        method: 'POST',
        headers: {
          Authorization: await signRequest({ key: { key, secret }, method: 'POST', url: handle.url + path, body, aud: handle.url }),
          'Content-Type': 'application/json',
        },
        body,
      })
      expect(enrolled.status).toBe(201)
      await store.stored()
    } finally {
      await handle.close()
      await store.close()
    }
    // The reset, refused then, is on disk now: the filler is gone, and Ada, enrolled after it, is there.
    const reopened = await openDataStore(dataDir)
    try {
      expect(reopened.collection('outbox').load()).toEqual([])
      expect(
        reopened
          .collection<{ identifier: string }>('identities')
          .load()
          .map((identity) => identity.identifier),
      ).toEqual(['ada@example.com'])
    } finally {
      await reopened.close()
    }
  })
})

describe('a start on a disk in trouble', () => {
  it('ends with exit 1 and one line naming the directory, the cause and the fix, on a full disk', { timeout: 60_000 }, async (context) => {
    const disk = mounted(context, mountTmpfs(join(work, 'full'), '2m'))
    fill(disk)
    const dataDir = join(disk, 'data')
    const { code, signal, output } = await runServiceCommand(['--data', dataDir], env(), { command })
    expect({ code, signal }).toEqual({ code: 1, signal: null })
    expect(output).toMatch(
      new RegExp(
        `^${escaped(dataDir)} cannot keep the state: its disk is full \\(\\d+ KiB free, and the service needs \\d+ KiB\\)\\. Free some space there, or name another directory with --data\\.\\n$`,
      ),
    )
    // Nothing half made that a later start would trip over.
    expect(readdirSync(dataDir)).toEqual([])
  })

  it('ends with exit 1 and one line on a read-only mount: a new directory, and one that holds state', { timeout: 60_000 }, async (context) => {
    const source = join(work, 'writable')
    const existing = join(source, 'data')
    // Made while writable, as a directory is before its mount turns read-only.
    const store = await openDataStore(existing)
    store.collection('identities').put('a', identityRecord('a'))
    await store.close()
    const readOnly = mounted(context, bindReadOnly(source, join(work, 'read-only')))

    const fresh = join(readOnly, 'new', 'data')
    const created = await runServiceCommand(['--data', fresh], env(), { command })
    expect({ code: created.code, signal: created.signal }).toEqual({ code: 1, signal: null })
    expect(created.output).toBe(
      `The data directory ${fresh} cannot be created: ${readOnly} is on a read-only file system: name a directory on a writable disk with --data, or keep nothing with --in-memory.\n`,
    )

    const held = join(readOnly, 'data')
    const opened = await runServiceCommand(['--data', held], env(), { command })
    expect({ code: opened.code, signal: opened.signal }).toEqual({ code: 1, signal: null })
    expect(opened.output).toBe(`${held} is on a read-only file system: name a directory on a writable disk with --data, or keep nothing with --in-memory.\n`)
  })

  it('refuses in the store too, with the code a program can read', async (context) => {
    const disk = mounted(context, mountTmpfs(join(work, 'full-store'), '1m'))
    fill(disk)
    const refused = await openDataStore(join(disk, 'data')).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(StoreError)
    expect(refused).toMatchObject({ code: 'full' })
  })
})
