// Opening a store: in memory, or in a data directory, which is created when missing and refused
// when it holds something else.
import { mkdirSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { DATA_FILE, LmdbBackend, LOCK_FILE } from './lmdb-backend.ts'
import { MemoryBackend } from './memory-backend.ts'
import { Store } from './store.ts'

/** A store that keeps nothing: the tests', and `--in-memory`. */
export const memoryStore = (): Store => new Store(new MemoryBackend())

/**
 * The store of a data directory, created when missing. A directory that holds other files and
 * no service-auth state is refused, so a mistyped --data never writes into someone's folder.
 */
export function openDataStore(dataDir: string): Store {
  const dir = resolve(dataDir)
  try {
    mkdirSync(dir, { recursive: true })
  } catch (error) {
    throw new Error(`The data directory ${dir} cannot be created: ${(error as Error).message}`)
  }
  const names = readdirSync(dir)
  if (!names.includes(DATA_FILE) && names.some((name) => name !== LOCK_FILE)) {
    throw new Error(`${dir} holds other files and no service-auth state; name an empty or new directory with --data.`)
  }
  return new Store(new LmdbBackend(dir))
}

/** The store of a data directory, read-only, beside a service that may be running on it (for --export). */
export function readDataStore(dataDir: string): Store {
  const dir = resolve(dataDir)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    names = []
  }
  if (!names.includes(DATA_FILE)) throw new Error(`${dir} holds no service-auth state.`)
  return new Store(new LmdbBackend(dir, { readOnly: true }))
}
