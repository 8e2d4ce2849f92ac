// The backend of a data directory: LMDB (the `lmdb` package, whose platform binaries ship inside
// its npm packages), in one file, state.mdb, with a sub-database per collection. Why LMDB: a
// commit is copy-on-write and switches one meta page, so a process killed at any moment leaves
// the last commit whole, with no journal to replay and no lock left behind; and writes are batched
// and committed on a thread of their own, so the event loop that holds thousands of status polls
// never waits for the disk (the measurements are in the commit that chose it).
import { open, type Database, type RootDatabase } from 'lmdb'
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { DATA_FILE } from './open-store.ts'
import { StoreError } from './errors.ts'
import { META, SCHEMA_VERSION } from './schema.ts'
import type { Backend } from './store.ts'

// What the first page of an LMDB file starts its meta data with (little-endian), and the data
// version this lmdb writes. Checked before LMDB opens a file, because LMDB trusts what it maps:
// given any other file, it crashes the process instead of refusing it.
const LMDB_MAGIC = 0xbeefc0de
const LMDB_DATA_VERSION = 2

// LMDB's sub-database slots, fixed when the file is opened, before the directory says which
// collections it holds. A few dozen cost nothing; a directory holds the meta data, the mock's
// collections and a few of its opener's.
const MAX_DBS = 64

interface Owner {
  pid: number
}

export class LmdbBackend implements Backend {
  readonly #env: RootDatabase
  readonly #meta: Database<unknown, string>
  readonly #collections = new Map<string, Database<string, string>>()
  readonly #readOnly: boolean
  readonly collections: readonly string[]

  /**
   * Opens `dir`/state.mdb, refusing a file that is not LMDB's, a schema of another version, and a
   * directory another running service holds. `collections`: the ones its opener keeps (the
   * mock's and its own); any other the directory holds is kept too. `readOnly` (for --export)
   * reads beside a running service.
   */
  constructor(
    readonly location: string,
    { collections, readOnly = false }: { collections: readonly string[]; readOnly?: boolean },
  ) {
    const file = join(location, DATA_FILE)
    checkDataFile(file)
    this.#readOnly = readOnly
    this.#env = open({ path: file, noSubdir: true, maxDbs: MAX_DBS, compression: false, readOnly })
    try {
      // The sub-databases the file holds, as LMDB names them in its main database: those of a
      // program that shared the directory are exported and counted with the opener's own.
      const held = [...this.#env.getKeys()].filter((name): name is string => typeof name === 'string' && name !== META)
      this.collections = [...new Set([...collections, ...held])]
      if (this.collections.length + 1 > MAX_DBS) {
        throw new Error(`${this.location} holds more collections than the ${MAX_DBS - 1} a data directory can (${this.collections.join(', ')}).`)
      }
      this.#meta = this.#env.openDB<unknown, string>({ name: META, encoding: 'json' })
      for (const name of this.collections) {
        // Read-only, LMDB cannot create one: a collection its opener keeps and nobody wrote yet is empty.
        if (readOnly && !held.includes(name)) continue
        this.#collections.set(name, this.#env.openDB<string, string>({ name, encoding: 'string' }))
      }
      this.#checkSchema()
      if (!readOnly) this.#takeOwnership()
    } catch (error) {
      void this.#env.close()
      throw error
    }
  }

  *entries(collection: string): Iterable<[string, string]> {
    const db = this.#collections.get(collection)
    if (!db) return
    for (const { key, value } of db.getRange()) yield [key, value]
  }

  write(collection: string, id: string, text: string | undefined): Promise<unknown> {
    return text === undefined ? this.#db(collection).remove(id) : this.#db(collection).put(id, text)
  }

  clear(collection: string): Promise<unknown> {
    return this.#db(collection).clearAsync()
  }

  flushed(): Promise<unknown> {
    return Promise.resolve(this.#env.flushed)
  }

  async close(): Promise<void> {
    if (!this.#readOnly) await this.#meta.remove('owner')
    await this.#env.flushed
    await this.#env.close()
  }

  #db(collection: string): Database<string, string> {
    const db = this.#collections.get(collection)
    if (!db) throw new StoreError(`${this.location} keeps no collection "${collection}"${this.#readOnly ? ' that can be written: it is open read-only' : ''}.`, { code: 'collection' })
    return db
  }

  #checkSchema(): void {
    const schema = this.#meta.get('schema')
    if (schema === SCHEMA_VERSION) return
    if (schema === undefined) {
      // New, or created by a start that died before it wrote anything: it holds no record then.
      if ([...this.#collections.values()].every((db) => db.getKeysCount() === 0)) {
        if (!this.#readOnly) this.#meta.putSync('schema', SCHEMA_VERSION)
        return
      }
      throw new Error(`${this.location} holds records but no schema version: it was not written by service-auth, or is damaged. Move it away, or name another directory with --data.`)
    }
    // A migration from an older version would go here, in one write transaction; there is none
    // yet, since version 1 is the first.
    const which = typeof schema === 'number' && schema > SCHEMA_VERSION ? 'a newer' : 'another'
    throw new Error(
      `${this.location} was written by ${which} version of service-auth (state schema ${JSON.stringify(schema)}; this version reads schema ${SCHEMA_VERSION}). ` +
        'Start that version with it, or name another directory with --data.',
    )
  }

  /**
   * Two services on one directory would each keep their own view in memory and overwrite each
   * other's records. The owner's pid is written in the same transaction that checks it; a pid
   * that no longer runs (a service killed with -9) leaves no claim.
   */
  #takeOwnership(): void {
    this.#env.transactionSync(() => {
      const owner = this.#meta.get('owner') as Owner | undefined
      if (owner && owner.pid !== process.pid && isRunning(owner.pid)) {
        throw new Error(`${this.location} is in use by another running service (process ${owner.pid}). Stop it, or name another directory with --data.`)
      }
      this.#meta.putSync('owner', { pid: process.pid } satisfies Owner)
    })
  }
}

/** Refuses a file that LMDB would crash on: anything but an LMDB file of the data version this lmdb writes. */
function checkDataFile(file: string): void {
  let size: number
  try {
    size = statSync(file).size
  } catch {
    return
  }
  // Created by a start killed before LMDB wrote to it: LMDB starts such a file afresh.
  if (size === 0) return
  const head = Buffer.alloc(64)
  const fd = openSync(file, 'r')
  let read: number
  try {
    read = readSync(fd, head, 0, head.length, 0)
  } finally {
    closeSync(fd)
  }
  // The meta data follows the page header, whose size depends on the platform's page numbers.
  for (let offset = 0; offset + 8 <= read; offset += 4) {
    if (head.readUInt32LE(offset) !== LMDB_MAGIC) continue
    const version = head.readUInt32LE(offset + 4)
    if (version === LMDB_DATA_VERSION) return
    throw new Error(`${file} is an LMDB file of data version ${version}, and this version reads ${LMDB_DATA_VERSION}. Open it with the version that wrote it, or name another directory with --data.`)
  }
  throw new Error(`${file} is not a service-auth data file (or it is damaged). Move it away, or name another directory with --data.`)
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
