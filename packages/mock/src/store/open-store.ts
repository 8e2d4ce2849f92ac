// Opening a store: in memory, or in a data directory, which is created when missing and refused
// when it holds something else. LMDB, a native module, is loaded only for a data directory:
// whoever keeps everything in memory (the tests, startMockService) never needs its binary.
import { mkdirSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadLmdbBackend } from './lmdb-loader.js'
import { MemoryBackend } from './memory-backend.js'
import { isClaimFile } from './owner-claim.js'
import { collectionNames } from './schema.js'
import { Store } from './store.js'

/** The files LMDB keeps in a data directory (lmdb-backend.ts opens them). */
export const DATA_FILE = 'state.mdb'
const LOCK_FILE = 'state.mdb-lock'

export interface StoreOptions {
  /**
   * Collections of the caller's own, kept beside the mock service's (whose names they may not
   * take): for an app that shares the store with the mock, e.g. `['app-users']`. Only the
   * collections named here, and the mock's, can be written; an import must name no other.
   */
  collections?: readonly string[]
}

/** A store that keeps nothing: the tests', and `--in-memory`. */
export const memoryStore = (options: StoreOptions = {}): Store => new Store(new MemoryBackend({ collections: collectionNames(options.collections) }))

/**
 * The store of a data directory, created when missing. A directory that holds other files and
 * no service-auth state is refused, so a mistyped --data never writes into someone's folder.
 */
export async function openDataStore(dataDir: string, options: StoreOptions = {}): Promise<Store> {
  const collections = collectionNames(options.collections)
  const dir = resolve(dataDir)
  try {
    // Its owner's only: it holds the API secret a start made up.
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new Error(`The data directory ${dir} cannot be created: ${(error as Error).message}`)
  }
  const names = readdirSync(dir)
  if (!names.includes(DATA_FILE) && names.some((name) => name !== LOCK_FILE && !isClaimFile(name))) {
    throw new Error(`${dir} holds other files and no service-auth state; name an empty or new directory with --data.`)
  }
  const LmdbBackend = await loadLmdbBackend()
  return new Store(await LmdbBackend.open(dir, { collections }))
}

/** The store of a data directory, read-only, beside a service that may be running on it (for --export). */
export async function readDataStore(dataDir: string, options: StoreOptions = {}): Promise<Store> {
  const collections = collectionNames(options.collections)
  const dir = resolve(dataDir)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    names = []
  }
  if (!names.includes(DATA_FILE)) throw new Error(`${dir} holds no service-auth state.`)
  const LmdbBackend = await loadLmdbBackend()
  return new Store(await LmdbBackend.open(dir, { collections, readOnly: true }))
}
