// Opening a store: in memory, or in a data directory, which is created when missing and refused
// when it holds something else. LMDB, a native module, is loaded only for a data directory:
// whoever keeps everything in memory (the tests, startMockService) never needs its binary.
import { readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { given } from '../common/given.js'
import { DATA_FILE, LOCK_FILE, prepareDataFiles, prepareDirectory } from './data-directory.js'
import { type DirectoryNaming, OPEN_DATA_STORE_NAMING } from './errors.js'
import { loadLmdbBackend } from './lmdb-loader.js'
import { MemoryBackend } from './memory-backend.js'
import { isClaimFile } from './owner-claim.js'
import { collectionNames } from './schema.js'
import { Store } from './store.js'

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
 * The store of a data directory, created when missing, and made its owner's alone (0700, its
 * files 0600). Refused, with what to do: a directory that holds other files and no service-auth
 * state (so a mistyped directory never writes into someone's folder), one another user can write,
 * one on a read-only file system, and one whose disk has no room for it (data-directory.ts).
 */
export async function openDataStore(dataDir: string, options: StoreOptions = {}): Promise<Store> {
  return openDataDirectory(checkedDataDir(dataDir), options, OPEN_DATA_STORE_NAMING)
}

/** openDataStore, its refusals naming the directory as `naming` says: the command's --data, say. */
export async function openDataDirectory(dataDir: string, options: StoreOptions, naming: DirectoryNaming): Promise<Store> {
  const dir = resolve(dataDir)
  const collections = collectionNames(options.collections)
  // Before the directory is made: a start that cannot keep anything there leaves nothing there.
  const LmdbBackend = await loadLmdbBackend(naming)
  prepareDirectory(dir, naming)
  const names = readdirSync(dir)
  if (!names.includes(DATA_FILE) && names.some((name) => name !== LOCK_FILE && !isClaimFile(name))) {
    throw new Error(`${dir} holds other files and no service-auth state; ${naming.name('an empty or new directory')}.`)
  }
  prepareDataFiles(dir, naming)
  const store = new Store(await LmdbBackend.open(dir, { collections, naming }))
  try {
    store.checkRecords(naming)
  } catch (error) {
    await store.close()
    throw error
  }
  return store
}

/** The store of a data directory, read-only, beside a service that may be running on it (for --export). */
export async function readDataStore(dataDir: string, options: StoreOptions, naming: DirectoryNaming): Promise<Store> {
  const collections = collectionNames(options.collections)
  const dir = resolve(dataDir)
  // First: without lmdb no directory can be read, whatever it holds, and that is what to say.
  const LmdbBackend = await loadLmdbBackend(naming)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    names = []
  }
  if (!names.includes(DATA_FILE)) throw new Error(`${dir} holds no service-auth state: ${naming.name('the directory the service keeps its state in')}.`)
  return new Store(await LmdbBackend.open(dir, { collections, readOnly: true, naming }))
}

/**
 * resolve('') is the working directory, which would be made the data directory (0700) if it
 * were empty; and a caller in JavaScript may pass anything. Refused before the disk is touched.
 */
function checkedDataDir(dataDir: unknown): string {
  if (typeof dataDir !== 'string' || dataDir === '') {
    throw new TypeError(`openDataStore's directory must be a path (a non-empty string, relative to the working directory), not ${given(dataDir)}.`)
  }
  return dataDir
}
