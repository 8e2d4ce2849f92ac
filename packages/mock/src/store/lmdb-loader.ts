// lmdb is an optional dependency of the mock: a native module, which some sandboxes cannot install
// and some platforms cannot load. Only a data directory needs it, so it is loaded here, on first
// use, and its absence is one line that says what to do rather than a loader's stack trace.
import type { DirectoryNaming } from './errors.js'
import type { LmdbBackend } from './lmdb-backend.js'

/** The backend of a data directory; `naming` says how to keep the state in memory instead, without lmdb. */
export async function loadLmdbBackend(naming: DirectoryNaming): Promise<typeof LmdbBackend> {
  try {
    return (await import('./lmdb-backend.js')).LmdbBackend
  } catch (error) {
    const code = (error as { code?: unknown }).code
    const why = code === 'ERR_MODULE_NOT_FOUND' ? 'it is not installed' : String((error as Error).message ?? error).split('\n')[0]
    throw new Error(
      `A data directory needs lmdb, which could not be loaded (${why}): install it (npm install lmdb), or keep the state in memory with ${naming.inMemory}.`,
    )
  }
}
