// The backend of a data directory: LMDB (the `lmdb` package, whose platform binaries ship inside
// its npm packages), in one file, state.mdb, with a sub-database per collection. Why LMDB: a
// commit is copy-on-write and switches one meta page, so a process killed at any moment leaves
// the last commit whole, with no journal to replay and no lock left behind; and writes are batched
// and committed on a thread of their own, so the event loop that holds thousands of status polls
// never waits for the disk (the measurements are in the commit that chose it).
import { open, type Database, type RootDatabase } from 'lmdb'
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { constants } from 'node:os'
import { join } from 'node:path'
import { DATA_FILE, freeBytes, noRoomToStart } from './data-directory.js'
import { DataFileRoom, MIN_ROOM } from './data-file-room.js'
import { type DirectoryNaming, StoreError } from './errors.js'
import { OwnerClaim, type ClaimLedger } from './owner-claim.js'
import { META, SCHEMA_VERSION } from './schema.js'
import type { Backend } from './store.js'

// What the first page of an LMDB file starts its meta data with (little-endian), and the data
// version this lmdb writes. Checked before LMDB opens a file, because LMDB trusts what it maps:
// given any other file, it crashes the process instead of refusing it.
const LMDB_MAGIC = 0xbeefc0de
const LMDB_DATA_VERSION = 2

// LMDB's sub-database slots, fixed when the file is opened, before the directory says which
// collections it holds. A few dozen cost nothing; a directory holds the meta data, the mock's
// collections and a few of its opener's.
const MAX_DBS = 64

// How long a failed commit's answer waits for its cause (#failed).
const CAUSE_WAIT_MS = 1000

/**
 * The meta data's record of who took the directory last: `claim` is the generation of the
 * owner's socket (owner-claim.ts). `pid` is for people, and for versions before the socket,
 * which read it alone; nothing here trusts it.
 */
interface Owner {
  pid: number
  claim?: string
}

export class LmdbBackend implements Backend {
  readonly #env: RootDatabase
  readonly #meta: Database<unknown, string>
  readonly #collections = new Map<string, Database<string, string>>()
  readonly #readOnly: boolean
  /** How its opener names a directory, for the way out of a failed write. */
  readonly #naming: DirectoryNaming
  /** Where LMDB writes without taking more of the disk; none read-only. */
  readonly #room: DataFileRoom | undefined
  /**
   * Set by the first commit that failed: why every change since is refused, until a restart.
   * lmdb-js commits before it flushes, so a commit whose flush failed (a disk that says it is full
   * only then, or an I/O error) is in the file all the same, and every later commit builds on its
   * pages, which the disk may not hold: a later flush that succeeds would not put them there.
   * So no later change is acknowledged as stored. (After a commit that failed in its writes,
   * lmdb-js is known to corrupt its heap within a few more: data-file-room.ts.)
   */
  #failure: StoreError | undefined
  /** What write() and clear() gave out and has not settled: what flushed() waits for. */
  readonly #writing = new Set<Promise<unknown>>()
  #claim: OwnerClaim | undefined
  readonly collections: readonly string[]

  /**
   * Opens `dir`/state.mdb, refusing a file that is not LMDB's, a directory another running
   * process holds, and a schema of another version. `collections`: the ones its opener keeps (the
   * mock's and its own); any other the directory holds is kept too. `readOnly` (for --export)
   * reads beside a running service, and claims nothing.
   */
  static async open(location: string, options: { collections: readonly string[]; readOnly?: boolean; naming: DirectoryNaming }): Promise<LmdbBackend> {
    const backend = new LmdbBackend(location, options)
    try {
      // Checked before the claim, which writes: a directory of another version is left as it is.
      const isNew = backend.#checkSchema(options.naming)
      if (!backend.#readOnly) {
        // Before the first write, the claim's: LMDB must never meet a full disk (data-file-room.ts).
        const refusal = backend.#room!.refusal()
        if (refusal?.code === 'full') throw noRoomToStart(location, freeBytes(location) ?? 0, MIN_ROOM, options.naming)
        if (refusal) throw refusal
        backend.#claim = await OwnerClaim.take(location, backend.#ledger(), options.naming)
        // Written by its owner only, like everything else.
        if (isNew) backend.#meta.putSync('schema', SCHEMA_VERSION)
        backend.#create()
      }
    } catch (error) {
      await backend.#env.close()
      backend.#room?.close()
      await backend.#claim?.release()
      throw error
    }
    return backend
  }

  private constructor(
    readonly location: string,
    { collections, readOnly = false, naming }: { collections: readonly string[]; readOnly?: boolean; naming: DirectoryNaming },
  ) {
    const file = join(location, DATA_FILE)
    checkDataFile(file, naming)
    this.#readOnly = readOnly
    this.#naming = naming
    // separateFlushed: a write's promise resolves on its commit, and carries the flush of that
    // commit (flushedWith); the environment's `flushed` is the flush of the last commit, which
    // under a stream of creations is a later batch's, that an answer need not wait for.
    // eventTurnBatching off: with it, lmdb-js starts each event turn's batch with a write of its
    // own whose promise it drops, so a failed commit rejects a promise nobody can handle, and Node
    // ends the process (measured: a flush failing with ENOSPC or EIO, sync-faults.test.ts). The
    // writes of a turn are still committed together: lmdb-js starts a commit a setImmediate later.
    this.#env = open({ path: file, noSubdir: true, maxDbs: MAX_DBS, compression: false, readOnly, separateFlushed: true, eventTurnBatching: false })
    try {
      const env = this.#env
      this.#room = readOnly
        ? undefined
        : new DataFileRoom(file, location, {
            used: () => {
              const { lastPageNumber, pageSize } = env.getStats() as { lastPageNumber: number; pageSize: number }
              return (lastPageNumber + 1) * pageSize
            },
            exclusive: (grow) => env.transactionSync(grow),
          })
      // The sub-databases the file holds, as LMDB names them in its main database: those of a
      // program that shared the directory are exported and counted with the opener's own.
      const held = [...this.#env.getKeys()].filter((name): name is string => typeof name === 'string' && name !== META)
      this.collections = [...new Set([...collections, ...held])]
      if (this.collections.length + 1 > MAX_DBS) {
        throw new Error(`${this.location} holds more collections than the ${MAX_DBS - 1} a data directory can (${this.collections.join(', ')}).`)
      }
      this.#meta = this.#env.openDB<unknown, string>({ name: META, encoding: 'json' })
      // The others are created once the directory is claimed (#create); until then, and read-only
      // for good, a collection nobody wrote to yet is empty.
      for (const name of held) this.#collections.set(name, this.#env.openDB<string, string>({ name, encoding: 'string' }))
    } catch (error) {
      void this.#env.close()
      this.#room?.close()
      throw error
    }
  }

  *entries(collection: string): Iterable<[string, string]> {
    const db = this.#collections.get(collection)
    if (!db) return
    for (const { key, value } of db.getRange()) yield [key, value]
  }

  write(collection: string, id: string, text: string | undefined): Promise<unknown> {
    const db = this.#db(collection)
    const written = text === undefined ? db.remove(id) : db.put(id, text)
    this.#room?.track(id.length + (text?.length ?? 0), written)
    return this.#stored(written)
  }

  clear(collection: string): Promise<unknown> {
    const cleared = this.#db(collection).clearAsync()
    // Its pages go to the free list, whose own pages it takes.
    this.#room?.track(4 * 4096, cleared)
    return this.#stored(cleared)
  }

  /**
   * Once every write so far is on disk, or failed. Not the environment's `flushed`: lmdb-js
   * neither resolves nor rejects the flush of a commit that failed, so after one, that would wait
   * for good (until a later write, which a failure refuses).
   */
  async flushed(): Promise<unknown> {
    return Promise.allSettled([...this.#writing])
  }

  refusal(): StoreError | undefined {
    return this.#failure ?? this.#room?.refusal()
  }

  async close(): Promise<void> {
    // Versions before the socket read the pid alone: they find nobody recorded rather than a pid
    // that some other process may be given next. Not on a full disk, where the pid stays, nor after
    // a failed commit; and should this write fail, the pid stays too, which nothing trusts.
    if (!this.#readOnly && !this.refusal()) await this.#stored(this.#meta.remove('owner')).catch(() => {})
    await this.flushed()
    // lmdb-js's close waits for the flush of the last commit, which it never settles when that
    // commit failed: then the file is left to the process's end to close, rather than a stop
    // that never ends.
    const closed = this.#env.close()
    if (!this.#failure) await closed
    this.#room?.close()
    // Given up last, once everything is on disk and the file closed: the next owner starts from all of it.
    await this.#claim?.release()
  }

  /** `written`'s commit, then the flush of that commit; a failure as #failed says. Counted until it settles, for flushed(). */
  #stored(written: Promise<unknown>): Promise<unknown> {
    const stored = written.then(
      // The environment's flush where lmdb-js gives the write none of its own (a write it answers
      // at once): on disk either way, perhaps a little later.
      () => flushedWith(written, this.#env.flushed),
      (error: unknown) => this.#failed(error),
    )
    this.#writing.add(stored)
    const settled = () => this.#writing.delete(stored)
    stored.then(settled, settled)
    return stored
  }

  /**
   * A commit that failed, as a StoreError that names the directory and the cause, which lmdb-js
   * keeps apart, in a promise it rejects too and nobody else handles (its issue 368): handled
   * here. It is rejected when the write thread's work ends, most often in the same callback as
   * the write, but a turn of the event loop later when a callback before it saw the failure first
   * (measured: a failed flush, now and then), so it is waited for, up to a second.
   */
  async #failed(error: unknown): Promise<never> {
    const commitError = (error as { commitError?: Promise<unknown> }).commitError
    const cause = commitError
      ? await Promise.race([
          commitError.then(
            () => error,
            (cause: unknown) => cause,
          ),
          new Promise((resolve) => setTimeout(() => resolve(error), CAUSE_WAIT_MS).unref()),
        ])
      : error
    const errno = (cause as { code?: unknown }).code
    const full = errno === constants.errno.ENOSPC || errno === constants.errno.EDQUOT || errno === 'ENOSPC' || errno === 'EDQUOT'
    const why = full ? `its disk is full (${(cause as Error).message})` : String((cause as Error)?.message ?? cause)
    const code = full ? 'full' : 'write'
    this.#failure ??= new StoreError(
      `The change cannot be stored in ${this.location}: an earlier change could not be written to its disk (${why}), and what its data file holds since ` +
        'may not all be on the disk. Changes are refused until the service is restarted, and its data file may not be whole: fix the disk (free ' +
        `some space, say), then ${this.#naming.moveToNew(this.location)}, rather than go on with this one.`,
      { code, cause },
    )
    throw new StoreError(`The change cannot be stored in ${this.location}: ${why}.`, { code, cause })
  }

  #db(collection: string): Database<string, string> {
    const db = this.#collections.get(collection)
    if (!db)
      throw new StoreError(`${this.location} keeps no collection "${collection}"${this.#readOnly ? ' that can be written: it is open read-only' : ''}.`, {
        code: 'collection',
      })
    return db
  }

  /** Creates the collections its opener keeps that the file does not hold yet. */
  #create(): void {
    for (const name of this.collections) {
      if (!this.#collections.has(name)) this.#collections.set(name, this.#env.openDB<string, string>({ name, encoding: 'string' }))
    }
  }

  /** Refuses a schema this version cannot read; true for a new directory, whose schema is still to be written. */
  #checkSchema(naming: DirectoryNaming): boolean {
    const schema = this.#meta.get('schema')
    if (schema === SCHEMA_VERSION) return false
    if (schema === undefined) {
      // New, or created by a start that died before it wrote anything: it holds no record then.
      if ([...this.#collections.values()].every((db) => db.getKeysCount() === 0)) return true
      throw new Error(
        `${this.location} holds records but no schema version: it was not written by service-auth, or is damaged. Move it away, or ${naming.name('another directory')}.`,
      )
    }
    // A migration from an older version would go here, in one write transaction once the
    // directory is claimed; there is none yet, since version 1 is the first.
    const which = typeof schema === 'number' && schema > SCHEMA_VERSION ? 'a newer' : 'another'
    throw new Error(
      `${this.location} was written by ${which} version of service-auth (state schema ${JSON.stringify(schema)}; this version reads schema ${SCHEMA_VERSION}). ` +
        `Start that version with it, or ${naming.name('another directory')}.`,
    )
  }

  /**
   * Two services on one directory would each keep their own view in memory and overwrite each
   * other's records, so a directory has one owner (owner-claim.ts). The generation of its claim is
   * changed in a write transaction, whose lock every process that opens the file shares, and
   * which LMDB frees when its holder dies.
   */
  #ledger(): ClaimLedger {
    const owner = () => this.#meta.get('owner') as Owner | undefined
    return {
      generation: () => {
        // A snapshot taken now, not the one an earlier read of this process holds.
        this.#env.resetReadTxn()
        return owner()?.claim
      },
      swap: (expected, next, install) =>
        this.#env.transactionSync(() => {
          if (owner()?.claim !== expected) return false
          install()
          this.#meta.putSync('owner', { pid: process.pid, claim: next } satisfies Owner)
          return true
        }),
    }
  }
}

/**
 * The flush to disk of the commit a write of lmdb's went into (opened with separateFlushed): its
 * `flushed`, or `fallback` when it has none (a write lmdb-js answers at once, without a commit).
 */
function flushedWith(written: Promise<unknown>, fallback?: PromiseLike<unknown>): PromiseLike<unknown> | undefined {
  return (written as { flushed?: PromiseLike<unknown> }).flushed ?? fallback
}

/** Refuses a file that LMDB would crash on: anything but an LMDB file of the data version this lmdb writes. */
function checkDataFile(file: string, naming: DirectoryNaming): void {
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
    throw new Error(
      `${file} is an LMDB file of data version ${version}, and this version reads ${LMDB_DATA_VERSION}. Open it with the version that wrote it, or ${naming.name('another directory')}.`,
    )
  }
  throw new Error(`${file} is not a service-auth data file (or it is damaged). Move it away, or ${naming.name('another directory')}.`)
}
