// @vitest-environment node
// A data directory is used only when it is one of ours, of this version, and no other running
// service has it; anything else is refused with a message that says what to do, never misread.
import { spawnSync } from 'node:child_process'
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { open } from 'lmdb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDataStore } from '../../src/store/open-store.ts'
import { SCHEMA_VERSION } from '../../src/store/schema.ts'
import { runServiceCommand } from './service-process.ts'

let work: string
let made = 0
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-dirs-'))
})
afterAll(() => rm(work, { recursive: true, force: true }))

const newDir = () => join(work, `dir-${++made}`)

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
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    store.collection('identities').put('a', { id: 'a' })
    await store.close()
    const again = await openDataStore(dir)
    expect(again.collection('identities').load()).toEqual([{ id: 'a' }])
    await again.close()
  })

  it('is refused when it holds other files and no state: a mistyped --data writes into nobody\'s folder', async () => {
    const dir = newDir()
    mkdirSync(dir)
    writeFileSync(join(dir, 'notes.txt'), 'mine')
    await expect(openDataStore(dir)).rejects.toThrow(`${dir} holds other files and no service-auth state; name an empty or new directory with --data.`)
  })

  it('is refused when its state.mdb is not an LMDB file, where LMDB itself would crash', async () => {
    const dir = newDir()
    mkdirSync(dir)
    writeFileSync(join(dir, 'state.mdb'), 'SQLite format 3\0'.padEnd(8192, '\0'))
    await expect(openDataStore(dir)).rejects.toThrow(`${join(dir, 'state.mdb')} is not a service-auth data file (or it is damaged). Move it away, or name another directory with --data.`)
  })

  it('starts afresh from an empty state.mdb, as a start killed before its first write leaves it', async () => {
    const dir = newDir()
    mkdirSync(dir)
    writeFileSync(join(dir, 'state.mdb'), '')
    const store = await openDataStore(dir)
    expect(store.isEmpty()).toBe(true)
    await store.close()
  })

  it('is refused when another version wrote it, with what to do', async () => {
    const dir = await withMeta({ schema: SCHEMA_VERSION + 1 })
    await expect(openDataStore(dir)).rejects.toThrow(
      `${dir} was written by a newer version of service-auth (state schema ${SCHEMA_VERSION + 1}; this version reads schema ${SCHEMA_VERSION}). Start that version with it, or name another directory with --data.`,
    )
  })

  it('is refused when it holds records but no schema version', async () => {
    const dir = await withMeta({}, { a: '{}' })
    await expect(openDataStore(dir)).rejects.toThrow(`${dir} holds records but no schema version`)
  })

  it('is refused while another running service holds it, and taken over from one that was killed', async () => {
    // The test's parent process runs, and is not this one.
    const held = await withMeta({ schema: SCHEMA_VERSION, owner: { pid: process.ppid } })
    await expect(openDataStore(held)).rejects.toThrow(`${held} is in use by another running service (process ${process.ppid}). Stop it, or name another directory with --data.`)
    const ended = spawnSync(process.execPath, ['-e', 'process.pid'])
    const left = await withMeta({ schema: SCHEMA_VERSION, owner: { pid: ended.pid } })
    await (await openDataStore(left)).close()
  })

  it('refuses through `npm run service` with the message alone and exit code 1', { timeout: 30_000 }, async () => {
    const dir = await withMeta({ schema: SCHEMA_VERSION + 1 })
    const { code, output } = await runServiceCommand(['--data', dir])
    expect(code).toBe(1)
    expect(output.trim()).toMatch(new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was written by a newer version of service-auth`))
  })
})
