// Where the mock service keeps what it is given, and an app beside it (its opener's collections)
// what it is. Their stores (identities, challenges, ...) keep working from their own maps in
// memory, and write every change through to one of these. The store's backend is either memory (tests, `--in-memory`)
// or a data directory on disk (LMDB, lmdb-backend.ts); everything above the backend, the JSON,
// the collections, export and import, is this one code (and the answer that waits for a
// request's writes, stored-answers.ts).
import { badRecords, badRecordsAmong, NotJson, parsedOrText, type RecordEntry } from './bad-records.js'
import { type DirectoryNaming, StoreError } from './errors.js'
import { RefusedWrites } from './refused-writes.js'
import { isObject, shown } from './record-shape.js'
import { MOCK_COLLECTIONS, SCHEMA_VERSION, STATE_FILE_FORMAT } from './schema.js'
import { checkedStateFile, type StateFile } from './state-file.js'
import { answerWaitsFor } from './stored-answers.js'

export type { StateFile }

/** What a backend keeps: JSON text by collection and id. */
export interface Backend {
  /**
   * Every collection it keeps: the mock's, its opener's, and (a data directory) any other it
   * holds, which another program that shares the directory keeps, so that an export or isEmpty()
   * misses nothing.
   */
  readonly collections: readonly string[]
  /** Every record of the collection as [id, text], in no particular order. */
  entries(collection: string): Iterable<[string, string]>
  /**
   * Writes a record, or removes it (`text` undefined); resolves once it is on disk (the commit it
   * went into flushed, not any later one), or undefined when it already is.
   */
  write(collection: string, id: string, text: string | undefined): Promise<unknown> | undefined
  /** Removes every record of the collection; resolves once that is on disk, or undefined when it already is. */
  clear(collection: string): Promise<unknown> | undefined
  /** Resolves once every write so far is on disk; undefined when there is no disk. */
  flushed(): Promise<unknown> | undefined
  /**
   * Why a write now would not be committed, asked before each one: a StoreError (`full`) when the
   * data directory's disk has no room left for it; undefined when it takes writes.
   */
  refusal(): StoreError | undefined
  /** Where the records are, for people: a directory, or "memory". */
  readonly location: string
  close(): Promise<void>
}

/**
 * `answer`: the answer of the request that made the change leaves only once the change is on
 * disk, so whatever a client was told survives a crash. `batched`: committed with the next batch
 * without holding any answer. New challenges are batched: the embed creates them by the hundred a
 * second, a status poll writes nothing, and a challenge lost to a crash costs the page no more than
 * asking for another (it does so on a 404).
 */
export type Durability = 'answer' | 'batched'

/** One kind of record by id, e.g. the identities; T is a JSON object. */
export class Collection<T extends object> {
  constructor(
    readonly name: string,
    private readonly store: Store,
  ) {}

  /** The records stored (as committed), in no particular order: what the owner builds its maps from at start. */
  load(): T[] {
    return [...this.store.backend.entries(this.name)].map(([, text]) => JSON.parse(text) as T)
  }

  /** Stores `record`, a JSON object: anything else is a TypeError, as a directory holding it could not be opened again. */
  put(id: string, record: T, durability: Durability = 'answer'): void {
    if (!isObject(record)) throw new TypeError(`A record of ${this.name} must be a JSON object ({…}); ${JSON.stringify(id)} was given ${shown(record)}.`)
    this.store.write(this.name, id, JSON.stringify(record), durability)
  }

  delete(id: string, durability: Durability = 'answer'): void {
    this.store.write(this.name, id, undefined, durability)
  }

  clear(): void {
    this.store.clear(this.name)
  }
}

export class Store {
  readonly #collections = new Map<string, Collection<object>>()
  /** Writes not yet committed, and the first that failed since stored() last looked: for stored(). */
  readonly #inFlight = new Set<Promise<unknown>>()
  #unstored: unknown
  readonly #refused = new RefusedWrites()
  /** Why writes are refused, since the last refusal() that found one; undefined while they are taken. */
  #refusal: StoreError | undefined
  #closing: Promise<void> | undefined

  constructor(readonly backend: Backend) {}

  /** One of the collections it keeps; any other name throws, since a data directory opens its collections up front. */
  collection<T extends object>(name: string): Collection<T> {
    if (!this.backend.collections.includes(name)) {
      const own = this.backend.collections.filter((kept) => !(MOCK_COLLECTIONS as readonly string[]).includes(kept))
      throw new StoreError(
        `This store keeps no collection "${name}": name it when opening the store ({ collections: ["${name}"] }). It keeps the mock's (${MOCK_COLLECTIONS.join(', ')})` +
          (own.length ? ` and ${own.join(', ')}.` : ' and no other.'),
        { code: 'collection' },
      )
    }
    let collection = this.#collections.get(name)
    if (!collection) this.#collections.set(name, (collection = new Collection<object>(name, this)))
    return collection as Collection<T>
  }

  /** A directory, or "memory". */
  get location(): string {
    return this.backend.location
  }

  /** Resolves once every write so far is on disk. */
  async flushed(): Promise<void> {
    await this.backend.flushed()
  }

  /**
   * Resolves once every write so far is on disk, and rejects with the first since the last call
   * that could not be stored: for a start that must not say it is ready before what it made is kept.
   */
  async stored(): Promise<void> {
    await Promise.allSettled(this.#inFlight)
    await this.backend.flushed()
    const unstored = this.#unstored
    this.#unstored = undefined
    if (unstored !== undefined) throw unstored
  }

  /**
   * Why this store takes no changes now (its disk is full: a StoreError, code `full`, whose
   * message names the directory and what to do), or undefined when it takes them. The service
   * asks before a request that changes anything, so that a refused request changes nothing.
   * When there is room again, the changes refused meanwhile are written first.
   */
  refusal(): StoreError | undefined {
    const refusal = this.backend.refusal()
    const refusing = this.#refusal
    this.#refusal = refusal
    if (refusal && !refusing) console.error(refusal.message)
    if (!refusal && refusing) {
      console.error(`${this.location} has room again: changes are stored again.`)
      this.#writeRefused()
    }
    return refusal
  }

  /**
   * Refuses (StoreError, code `record`) a store that holds a record of the mock's this version
   * cannot read, written by another version or by hand: a service built on it would fail deep
   * inside, at its start or at the request that met the record, naming neither. Asked when a data
   * directory is opened, before anything is built on it; the record is left as it is, and the
   * message, naming it, says how to carry the state over without it (`naming`).
   */
  checkRecords(naming: DirectoryNaming): void {
    const bad = badRecordsAmong(this.#entries())
    if (bad.length === 0) return
    throw new StoreError(
      `${this.location} holds ${badRecords(bad, 'read', ' (written by another version of service-auth, or by hand)')}. It is left as it is: ` +
        `${naming.moveToNew(this.location)}, correcting or removing ${bad.length === 1 ? 'that record' : 'those records'} in the export first.`,
      { code: 'record' },
    )
  }

  /** Every record it keeps, parsed (NotJson where its text is no JSON), collection by collection. */
  *#entries(): Iterable<RecordEntry> {
    for (const name of this.backend.collections) {
      for (const [id, text] of this.backend.entries(name)) yield [name, id, parsedOrText(text)]
    }
  }

  /** True when nothing is stored: what `--import` needs, since it seeds a fresh service. */
  isEmpty(): boolean {
    return this.backend.collections.every((name) => this.backend.entries(name)[Symbol.iterator]().next().done)
  }

  export(now = new Date()): StateFile {
    const collections: StateFile['collections'] = {}
    for (const name of this.backend.collections) {
      const records = Object.fromEntries([...this.backend.entries(name)].map(([id, text]) => [id, exported(text)]))
      if (Object.keys(records).length > 0) collections[name] = records
    }
    return { format: STATE_FILE_FORMAT, schema: SCHEMA_VERSION, exportedAt: now.toISOString(), collections }
  }

  /**
   * Seeds an empty store from an export. Checked whole before anything is written: a file of
   * another schema, naming a collection this store does not keep, or holding a record of the
   * mock's that is not of its shape (a fixture edited by hand, say), is refused rather than half
   * read.
   */
  async import(file: unknown, source = 'the file'): Promise<number> {
    const collections = checkedStateFile(file, { source, collections: this.backend.collections })
    // A data directory reads what is committed: anything written before must be, to be seen.
    await this.flushed()
    if (!this.isEmpty())
      throw new Error(`${this.location} holds state already; --import seeds a fresh service only: name a new directory with --data, or --in-memory.`)
    let count = 0
    for (const [name, records] of Object.entries(collections)) {
      for (const [id, record] of Object.entries(records)) {
        this.collection(name).put(id, record as object)
        count++
      }
    }
    await this.flushed()
    return count
  }

  /** Flushes and closes; once, however often it is called. */
  close(): Promise<void> {
    return (this.#closing ??= this.backend.close())
  }

  /** @internal Collection's: writes a record (or removes it: `text` undefined), unless the disk is full. */
  write(collection: string, id: string, text: string | undefined, durability: Durability): void {
    const refusal = this.refusal()
    if (refusal) {
      this.#refused.write(collection, id, text)
      this.#track(Promise.reject(refusal), durability)
    } else {
      this.#track(this.backend.write(collection, id, text), durability)
    }
  }

  /** @internal Collection's: removes every record of the collection, unless the disk is full. */
  clear(collection: string): void {
    const refusal = this.refusal()
    if (refusal) {
      this.#refused.clear(collection)
      this.#track(Promise.reject(refusal), 'answer')
    } else {
      this.#track(this.backend.clear(collection), 'answer')
    }
  }

  /** Writes what was refused while the disk was full, now that there is room: nobody waits for it. */
  #writeRefused(): void {
    for (const { collection, cleared, records } of this.#refused.take()) {
      if (cleared) this.#track(this.backend.clear(collection), 'batched')
      for (const [id, text] of records) this.#track(this.backend.write(collection, id, text), 'batched')
    }
  }

  /** Joins a durable write to the request being answered, and reports failed writes. */
  #track(written: Promise<unknown> | undefined, durability: Durability): void {
    if (!written) return
    // The backend resolves once the write is on disk: an `answer` waits for that, and no more.
    const stored = written
    this.#inFlight.add(stored)
    // Reported here whatever the durability (a refusal once, by refusal()); a request waiting for it also learns of it (answerAfterStoring).
    stored
      .catch((error: unknown) => {
        this.#unstored ??= error
        if (!(error instanceof StoreError && error.code === 'full')) console.error(`A change to ${this.location} could not be stored.`, error)
        // A failed commit makes the backend refuse what follows (lmdb-backend.ts): said now, once.
        this.refusal()
      })
      .finally(() => this.#inFlight.delete(stored))
    if (durability === 'answer') answerWaitsFor(stored)
  }
}

/**
 * A record as an export holds it: its JSON, or, for text that is no JSON, that text as a string.
 * Nothing stored is lost on the way out, and the export is the way out checkRecords names: the
 * import then refuses that record by name, to be mended in the file.
 */
function exported(text: string): unknown {
  const value = parsedOrText(text)
  return value instanceof NotJson ? value.text : value
}
