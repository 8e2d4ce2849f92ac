// @vitest-environment node
// A data directory is used only when it is one of ours, of this version, and no other running
// service has it; anything else is refused with a message that says what to do, never misread.
// (Processes that own one, are killed and leave zombies: owner.test.ts.)
import { chmodSync, chownSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { open } from 'lmdb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StoreError } from '../../src/store/errors.js'
import { openDataStore } from '../../src/store/open-store.js'
import { SCHEMA_VERSION } from '../../src/store/schema.js'
import { runServiceCommand } from './service-process.js'
import { identityRecord } from './records.js'

let work: string
let made = 0
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-dirs-'))
  // For the tests that start the service as another user: its directories are in here.
  chmodSync(work, 0o755)
})
afterAll(() => rm(work, { recursive: true, force: true }))

const newDir = () => join(work, `dir-${++made}`)

/** The user a test runs the service as, or gives a directory to, to see what another user may do. */
const NOBODY = { uid: 65534, gid: 65534 }

/** The permission bits of a directory (as `.`) and of each file in it. */
const modes = (dir: string) =>
  Object.fromEntries([['.', statSync(dir).mode & 0o777], ...readdirSync(dir).map((name) => [name, lstatSync(join(dir, name)).mode & 0o777])])

const safeReadlink = (path: string) => {
  try {
    return readlinkSync(path)
  } catch {
    return undefined
  }
}

/** A directory as some other program (or version) left it: its meta data set by hand. */
async function withMeta(meta: Record<string, unknown>, records: Record<string, string> = {}): Promise<string> {
  const dir = newDir()
  await (await openDataStore(dir)).close()
  const env = open({ path: join(dir, 'state.mdb'), noSubdir: true, maxDbs: 16 })
  for (const [name, value] of Object.entries(meta)) env.openDB({ name: 'meta', encoding: 'json' }).putSync(name, value)
  if (Object.keys(meta).length === 0) env.openDB({ name: 'meta', encoding: 'json' }).removeSync('schema')
  for (const [id, text] of Object.entries(records)) env.openDB({ name: 'identities', encoding: 'string' }).putSync(id, text)
  await env.close()
  return dir
}

describe('a data directory', () => {
  it('is created when missing, readable by its owner only, and opened again', async () => {
    const dir = join(newDir(), 'nested')
    const store = await openDataStore(dir)
    expect(modes(dir)).toEqual({ '.': 0o700, 'owner.sock': 0o600, 'state.mdb': 0o600, 'state.mdb-lock': 0o600 })
    store.collection('identities').put('a', identityRecord('a'))
    await store.close()
    const again = await openDataStore(dir)
    expect(again.collection('identities').load()).toEqual([identityRecord('a')])
    await again.close()
  })

  it("is made its owner's alone, 0700 and its files 0600, when it existed with looser modes: state.mdb holds the API secret", async () => {
    const dir = newDir()
    await (await openDataStore(dir)).close()
    // As a directory made by hand or by another version, or unpacked from a cache, may be.
    chmodSync(dir, 0o755)
    chmodSync(join(dir, 'state.mdb'), 0o644)
    chmodSync(join(dir, 'state.mdb-lock'), 0o666)
    const store = await openDataStore(dir)
    expect(modes(dir)).toEqual({ '.': 0o700, 'owner.sock': 0o600, 'state.mdb': 0o600, 'state.mdb-lock': 0o600 })
    await store.close()
  })

  it.runIf(process.platform !== 'win32')('is refused when another user owns it, naming it', async (context) => {
    context.skip(process.getuid!() !== 0, 'only root can give a directory to another user')
    const dir = newDir()
    mkdirSync(dir)
    chownSync(dir, NOBODY.uid, NOBODY.gid)
    const refused = await openDataStore(dir).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(StoreError)
    expect(refused).toMatchObject({
      code: 'not-private',
      message: `${dir} can be written by another user: it belongs to another user (uid ${NOBODY.uid}), who could change the service's state and read its API secret. Pass a directory of your own to openDataStore.`,
    })
  })

  it.runIf(process.platform !== 'win32')(
    "is refused, as another user's, when its group or anyone may write it, through `npm run service` with exit code 1",
    { timeout: 30_000 },
    async (context) => {
      context.skip(process.getuid!() !== 0, 'only root can start the service as another user')
      const dir = newDir()
      mkdirSync(dir)
      chmodSync(dir, 0o777)
      const { code, signal, output } = await runServiceCommand(['--data', dir], {}, { as: NOBODY })
      expect({ code, signal }).toEqual({ code: 1, signal: null })
      expect(output).toBe(
        `${dir} can be written by another user: its group or anyone may write it (mode 0777), who could change the service's state and read its API secret. Name a directory of your own with --data.\n`,
      )
    },
  )

  it("is refused, naming the file, when --data names a file or a path under one, not with Node's EEXIST or ENOTDIR", async () => {
    const file = newDir()
    writeFileSync(file, 'mine')
    await expect(openDataStore(file)).rejects.toMatchObject({ code: 'unwritable', message: `${file} is not a directory: pass a directory to openDataStore.` })
    await expect(openDataStore(join(file, 'state'))).rejects.toMatchObject({
      code: 'unwritable',
      message: `The data directory ${join(file, 'state')} cannot be created: ${file} is not a directory: pass a directory to openDataStore.`,
    })
  })

  it("is a path: openDataStore('') or a path that is no string is a TypeError, and the working directory is left as it was", async () => {
    // resolve('') is the working directory: an empty one was made the data directory.
    const cwd = newDir()
    mkdirSync(cwd, { mode: 0o755 })
    const before = process.cwd()
    process.chdir(cwd)
    try {
      await expect(openDataStore('')).rejects.toThrow(
        new TypeError(`openDataStore's directory must be a path (a non-empty string, relative to the working directory), not "".`),
      )
      await expect(openDataStore(undefined as unknown as string)).rejects.toThrow(/^openDataStore's directory must be a path .*, not undefined\.$/)
    } finally {
      process.chdir(before)
    }
    expect(readdirSync(cwd)).toEqual([])
    expect(statSync(cwd).mode & 0o777).toBe(0o755)
  })

  it("is refused when it holds other files and no state: a mistyped --data writes into nobody's folder", async () => {
    const dir = newDir()
    mkdirSync(dir)
    writeFileSync(join(dir, 'notes.txt'), 'mine')
    await expect(openDataStore(dir)).rejects.toThrow(`${dir} holds other files and no service-auth state; pass an empty or new directory to openDataStore.`)
  })

  it('is refused when its state.mdb is not an LMDB file, where LMDB itself would crash', async () => {
    const dir = newDir()
    mkdirSync(dir)
    writeFileSync(join(dir, 'state.mdb'), 'SQLite format 3\0'.padEnd(8192, '\0'))
    await expect(openDataStore(dir)).rejects.toThrow(
      `${join(dir, 'state.mdb')} is not a service-auth data file (or it is damaged). Move it away, or pass another directory to openDataStore.`,
    )
  })

  it('starts afresh from an empty state.mdb, as a start killed before its first write leaves it', async () => {
    const dir = newDir()
    mkdirSync(dir)
    writeFileSync(join(dir, 'state.mdb'), '')
    const store = await openDataStore(dir)
    expect(store.isEmpty()).toBe(true)
    await store.close()
  })

  it('is refused when another version wrote it, with what to do, and left as it was', async () => {
    const dir = await withMeta({ schema: SCHEMA_VERSION + 1 })
    await expect(openDataStore(dir)).rejects.toThrow(
      `${dir} was written by a newer version of service-auth (state schema ${SCHEMA_VERSION + 1}; this version reads schema ${SCHEMA_VERSION}). Start that version with it, or pass another directory to openDataStore.`,
    )
    expect(readdirSync(dir).sort()).toEqual(['state.mdb', 'state.mdb-lock'])
  })

  it('is refused when it holds records but no schema version', async () => {
    const dir = await withMeta({}, { a: '{}' })
    await expect(openDataStore(dir)).rejects.toThrow(`${dir} holds records but no schema version`)
  })

  it('is taken over from a socket nobody listens on, whatever live process the pid it records names', async () => {
    // The test's parent process runs, and owns nothing: the pid claim refused this directory.
    const dir = await withMeta({ schema: SCHEMA_VERSION, owner: { pid: process.ppid } })
    // A socket as an owner killed with -9 leaves it: the file, and nobody listening.
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(join(dir, 'gone.sock'), resolve))
    linkSync(join(dir, 'gone.sock'), join(dir, 'owner.sock'))
    await new Promise((resolve) => server.close(resolve))
    expect(statSync(join(dir, 'owner.sock')).isSocket()).toBe(true)
    const store = await openDataStore(dir)
    store.collection('identities').put('a', identityRecord('a'))
    await store.close()
    expect(readdirSync(dir).sort()).toEqual(['state.mdb', 'state.mdb-lock'])
  })

  it('is refused to a second store in the same process until the first is closed', async () => {
    const dir = newDir()
    const first = await openDataStore(dir)
    const refused = await openDataStore(dir).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(StoreError)
    expect(refused).toMatchObject({ code: 'in-use', ownerPid: process.pid, message: `${dir} is open already in this process: close that store first.` })
    await first.close()
    await (await openDataStore(dir)).close()
  })

  it('is won by one of the stores that race for it, and refused to the others', async () => {
    const dir = newDir()
    // Dead owner's socket and all: each racer finds it stale and tries to put its own in its place.
    await (await openDataStore(dir)).close()
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(join(dir, 'gone.sock'), resolve))
    linkSync(join(dir, 'gone.sock'), join(dir, 'owner.sock'))
    await new Promise((resolve) => server.close(resolve))

    const raced = await Promise.allSettled([openDataStore(dir), openDataStore(dir), openDataStore(dir)])
    const won = raced.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
    const lost = raced.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []))
    expect(won).toHaveLength(1)
    for (const error of lost) expect(error).toMatchObject({ code: 'in-use', message: `${dir} is open already in this process: close that store first.` })
    // The winner's socket is the one in place: it still holds the directory, and writes to it.
    await expect(openDataStore(dir)).rejects.toThrow('is open already in this process')
    won[0]!.collection('identities').put('a', identityRecord('a'))
    await won[0]!.flushed()
    expect(won[0]!.collection('identities').load()).toEqual([identityRecord('a')])
    await won[0]!.close()
    expect(readdirSync(dir).sort()).toEqual(['state.mdb', 'state.mdb-lock'])
  })

  it('is claimed through a short link when its path is too long for a Unix socket, and leaves no link behind', async () => {
    // Past the 108 bytes a socket's path may have on Linux (104 on macOS).
    const dir = join(newDir(), 'a-data-directory-nested-deep-enough'.repeat(4))
    expect(Buffer.byteLength(join(dir, 'owner.sock'))).toBeGreaterThan(108)
    const links = () =>
      readdirSync(tmpdir()).filter(
        (name) => lstatSync(join(tmpdir(), name), { throwIfNoEntry: false })?.isSymbolicLink() && safeReadlink(join(tmpdir(), name)) === dir,
      )
    const first = await openDataStore(dir)
    // The socket is in the directory itself, where every process finds it, and holds it.
    expect(statSync(join(dir, 'owner.sock')).isSocket()).toBe(true)
    await expect(openDataStore(dir)).rejects.toThrow(`${dir} is open already in this process`)
    await first.close()
    await (await openDataStore(dir)).close()
    expect(links()).toEqual([])
  })

  describe('whose owner.sock is not a socket', () => {
    for (const [kind, make] of [
      ['a directory', (path: string) => mkdirSync(path)],
      ['a regular file', (path: string) => writeFileSync(path, 'not a socket')],
      ['a symbolic link', (path: string) => symlinkSync(join(tmpdir(), 'elsewhere.sock'), path)],
    ] as const) {
      it(`is refused, naming it, when it is ${kind}, which is left as it is`, async () => {
        const dir = newDir()
        await (await openDataStore(dir)).close()
        const socket = join(dir, 'owner.sock')
        make(socket)
        const refused = await openDataStore(dir).catch((error: unknown) => error)
        expect(refused).toBeInstanceOf(StoreError)
        expect(refused).toMatchObject({
          code: 'owner-socket',
          message: `${socket} is ${kind}, where a running service keeps its socket: nothing of the service's is in it. Remove it, and start again.`,
        })
        expect(lstatSync(socket).isSocket()).toBe(false)
        expect(readdirSync(dir).sort()).toEqual(['owner.sock', 'state.mdb', 'state.mdb-lock'])
      })
    }
  })

  it.runIf(process.platform !== 'win32')(
    'is refused, naming owner.sock and its owner, when this user may not connect to it',
    { timeout: 30_000 },
    async (context) => {
      context.skip(process.getuid!() !== 0, 'only root can start the service as another user')
      const dir = newDir()
      await (await openDataStore(dir)).close()
      for (const path of [dir, ...readdirSync(dir).map((name) => join(dir, name))]) chownSync(path, NOBODY.uid, NOBODY.gid)
      // A socket of root's, as a service started by root leaves it, killed: nobody listens on it.
      const server = createServer()
      await new Promise<void>((resolve) => server.listen(join(dir, 'gone.sock'), resolve))
      linkSync(join(dir, 'gone.sock'), join(dir, 'owner.sock'))
      await new Promise((resolve) => server.close(resolve))
      chmodSync(join(dir, 'owner.sock'), 0o600)
      const { code, signal, output } = await runServiceCommand(['--data', dir], {}, { as: NOBODY })
      expect({ code, signal }).toEqual({ code: 1, signal: null })
      expect(output).toBe(
        `${join(dir, 'owner.sock')} cannot be checked for a running service: this user may not connect to it (it belongs to uid 0, mode 0600). Start the service as its owner, or, if none runs, remove it.\n`,
      )
    },
  )

  it('refuses through `npm run service` with the message alone and exit code 1', { timeout: 30_000 }, async () => {
    const dir = await withMeta({ schema: SCHEMA_VERSION + 1 })
    const { code, output } = await runServiceCommand(['--data', dir])
    expect(code).toBe(1)
    expect(output.trim()).toMatch(new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was written by a newer version of service-auth`))
  })
})
