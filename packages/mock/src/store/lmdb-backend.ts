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
import { COLLECTIONS, SCHEMA_VERSION, type CollectionName } from './schema.ts'
import type { Backend } from './store.ts'

// What the first page of an LMDB file starts its meta data with (little-endian), and the data
// version this lmdb writes. Checked before LMDB opens a file, because LMDB trusts what it maps:
// given any other file, it crashes the process instead of refusing it.
const LMDB_MAGIC = 0xbeefc0de
const LMDB_DATA_VERSION = 2

interface Owner {
  pid: number
}

export class LmdbBackend implements Backend {
  readonly #env: RootDatabase
  readonly #meta: Database<unknown, string>
  readonly #collections: Map<CollectionName, Database<string, string>>
  readonly #readOnly: boolean

  /**
   * Opens `dir`/state.mdb, refusing a file that is not LMDB's, a schema of another version, and a
   * directory another running service holds. `readOnly` (for --export) reads beside a running one.
   */
  constructor(
    readonly location: string,
    { readOnly = false } = {},
  ) {
    const file = join(location, DATA_FILE)
    checkDataFile(file)
    this.#readOnly = readOnly
    this.#env = open({ path: file, noSubdir: true, maxDbs: COLLECTIONS.length + 1, compression: false, readOnly })
    this.#meta = this.#env.openDB<unknown, string>({ name: 'meta', encoding: 'json' })
    this.#collections = new Map(COLLECTIONS.map((name) => [name, this.#env.openDB<string, string>({ name, encoding: 'string' })]))
    try {
      this.#checkSchema()
      if (!readOnly) this.#takeOwnership()
    } catch (error) {
      void this.#env.close()
      throw error
    }
  }

  *entries(collection: CollectionName): Iterable<[string, string]> {
    for (const { key, value } of this.#db(collection).getRange()) yield [key, value]
  }

  write(collection: CollectionName, id: string, text: string | undefined): Promise<unknown> {
    return text === undefined ? this.#db(collection).remove(id) : this.#db(collection).put(id, text)
  }

  clear(collection: CollectionName): Promise<unknown> {
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

  #db(collection: CollectionName): Database<string, string> {
    return this.#collections.get(collection)!
  }

  #checkSchema(): void {
    const schema = this.#meta.get('schema')
    if (schema === SCHEMA_VERSION) return
    if (schema === undefined) {
      // New, or created by a start that died before it wrote anything: it holds no record then.
      if (COLLECTIONS.every((name) => this.#db(name).getKeysCount() === 0)) {
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
