// What a data directory must be before LMDB opens it: there, its owner's alone, writable, and
// with room. Each check refuses with one line that names the directory, the cause and the fix,
// because LMDB's own refusals name neither ("Attempting to setup locks"), Node's recursive mkdir
// on a read-only mount says ENOENT, and on a full disk LMDB does not refuse at all: it maps its
// lock file, and the first touch of a page the disk cannot give ends the process with SIGBUS.
import { accessSync, chmodSync, closeSync, constants, mkdirSync, openSync, rmSync, statfsSync, statSync, writeSync, type Stats } from 'node:fs'
import { dirname, join } from 'node:path'
import { capitalized, type DirectoryNaming, StoreError } from './errors.js'

/** The files LMDB keeps in a data directory (lmdb-backend.ts opens them). */
export const DATA_FILE = 'state.mdb'
export const LOCK_FILE = 'state.mdb-lock'

// LMDB sizes its lock file for its readers (126 by default, 8,272 bytes on Linux) and takes a
// larger one as it is, for more readers. Written whole, with zeros, before LMDB opens it, so that
// every page LMDB maps is on the disk already: a page it must first get is the SIGBUS above.
const LOCK_FILE_BYTES = 16 * 1024

// What LMDB writes as it creates state.mdb (its meta pages and first tree pages), beside the lock
// file: with less free, LMDB is not opened at all. The room a store needs to take changes is
// checked once it is (data-file-room.ts).
export const NEW_STATE_BYTES = 64 * 1024

// The directory holds the API secret a start made up, and who can write it can change the state.
const DIRECTORY_MODE = 0o700
const FILE_MODE = 0o600

const kib = (bytes: number) => `${Math.floor(bytes / 1024)} KiB`

/**
 * Creates `dir` when missing, and makes it, and the files in it, its owner's alone: 0700 and
 * 0600, whether or not it existed. Refuses (StoreError) a directory that cannot be created or
 * written, and one that another user can write.
 */
export function prepareDirectory(dir: string, naming: DirectoryNaming): void {
  try {
    mkdirSync(dir, { recursive: true, mode: DIRECTORY_MODE })
  } catch (error) {
    throw cannotCreate(dir, error as NodeJS.ErrnoException, naming)
  }
  const stats = statSync(dir)
  if (!stats.isDirectory()) throw new StoreError(`${dir} is not a directory: ${naming.name('a directory')}.`, { code: 'unwritable' })
  makePrivate(dir, stats, DIRECTORY_MODE, naming)
  writable(dir, naming)
}

/**
 * Makes what LMDB will open safe to open: the lock file written whole when new, both files 0600,
 * and, for a new state.mdb, room on the disk for it. Call after prepareDirectory.
 */
export function prepareDataFiles(dir: string, naming: DirectoryNaming): void {
  const data = join(dir, DATA_FILE)
  const lock = join(dir, LOCK_FILE)
  const dataStats = statSync(data, { throwIfNoEntry: false })
  if (!dataStats || dataStats.size === 0) {
    const free = freeBytes(dir)
    if (free !== undefined && free < NEW_STATE_BYTES) throw noRoomToStart(dir, free, NEW_STATE_BYTES, naming)
  }
  for (const [file, bytes] of [
    [lock, LOCK_FILE_BYTES],
    [data, 0],
  ] as const) {
    const stats = statSync(file, { throwIfNoEntry: false })
    if (stats) makePrivate(file, stats, FILE_MODE, naming)
    else createWhole(dir, file, bytes, naming)
  }
}

/** The bytes of `dir`'s disk free for this user; undefined where the platform cannot say. */
export function freeBytes(dir: string): number | undefined {
  try {
    const { bavail, bsize } = statfsSync(dir)
    return bavail * bsize
  } catch {
    return undefined
  }
}

/** The start's refusal on a disk without room for the store. */
export function noRoomToStart(dir: string, free: number, needed: number, naming: DirectoryNaming): StoreError {
  return new StoreError(
    `${dir} cannot keep the state: its disk is full (${kib(free)} free, and the service needs ${kib(needed)}). Free some space there, or ${naming.name('another directory')}.`,
    { code: 'full' },
  )
}

/** The refusal of a directory or file that cannot be written: a read-only file system, or no permission. */
export function unwritable(path: string, error: NodeJS.ErrnoException, naming: DirectoryNaming): StoreError {
  if (error.code === 'EROFS') {
    return new StoreError(`${path} is on a read-only file system: ${naming.name('a directory on a writable disk')}, or keep nothing with ${naming.inMemory}.`, {
      code: 'unwritable',
      cause: error,
    })
  }
  if (error.code === 'EACCES' || error.code === 'EPERM') {
    return new StoreError(`${path} cannot be written by this user (${error.code}): ${naming.name('a directory of your own')}.`, {
      code: 'unwritable',
      cause: error,
    })
  }
  return new StoreError(`${path} cannot be written: ${error.message}`, { code: 'unwritable', cause: error })
}

/**
 * Why mkdir failed, from the nearest path that exists: Node's recursive mkdir says ENOENT on a
 * read-only mount, and EEXIST or ENOTDIR where a file stands in the way.
 */
function cannotCreate(dir: string, error: NodeJS.ErrnoException, naming: DirectoryNaming): StoreError {
  let existing = dir
  while (!statIfThere(existing) && dirname(existing) !== existing) existing = dirname(existing)
  if (!statIfThere(existing)?.isDirectory()) {
    const where = existing === dir ? '' : `The data directory ${dir} cannot be created: `
    return new StoreError(`${where}${existing} is not a directory: ${naming.name('a directory')}.`, { code: 'unwritable', cause: error })
  }
  try {
    accessSync(existing, constants.W_OK)
  } catch (why) {
    const refusal = unwritable(existing, why as NodeJS.ErrnoException, naming)
    return new StoreError(`The data directory ${dir} cannot be created: ${refusal.message}`, { code: refusal.code, cause: error })
  }
  return new StoreError(`The data directory ${dir} cannot be created: ${error.message}`, { code: 'unwritable', cause: error })
}

/** The path's stats, or undefined where nothing is: ENOTDIR too, for a path under a file. */
function statIfThere(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined
    throw error
  }
}

/** Refuses a directory nobody can write in, as LMDB would, but saying which and why. */
function writable(dir: string, naming: DirectoryNaming): void {
  try {
    accessSync(dir, constants.W_OK)
  } catch (error) {
    throw unwritable(dir, error as NodeJS.ErrnoException, naming)
  }
}

/**
 * Sets `mode` on a path of this user's; refuses one another user can write: another user's
 * (other than root, who can write anything anyway), or, when not this user's to change, one that
 * its group or anyone may write. Windows has no such modes: nothing to check there.
 */
function makePrivate(path: string, stats: Stats, mode: number, naming: DirectoryNaming): void {
  if (process.platform === 'win32' || process.getuid === undefined) return
  const me = process.getuid()
  if (stats.uid === me) {
    if ((stats.mode & 0o7777) === mode) return
    try {
      chmodSync(path, mode)
    } catch (error) {
      throw unwritable(path, error as NodeJS.ErrnoException, naming)
    }
    return
  }
  const why =
    stats.uid !== 0
      ? `it belongs to another user (uid ${stats.uid})`
      : stats.mode & 0o022
        ? `its group or anyone may write it (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')})`
        : undefined
  if (why) {
    throw new StoreError(
      `${path} can be written by another user: ${why}, who could change the service's state and read its API secret. ${capitalized(naming.name('a directory of your own'))}.`,
      { code: 'not-private' },
    )
  }
}

/** A new file of `bytes` zeros, this user's alone; created by one start only, should two race. */
function createWhole(dir: string, file: string, bytes: number, naming: DirectoryNaming): void {
  let fd: number
  try {
    fd = openSync(file, 'wx', FILE_MODE)
  } catch (error) {
    // Another start made it a moment ago: it is that start's to fill.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return
    throw unwritable(file, error as NodeJS.ErrnoException, naming)
  }
  try {
    if (bytes > 0) writeSync(fd, Buffer.alloc(bytes))
  } catch (error) {
    closeSync(fd)
    // Not left half written: LMDB would take a short lock file as it is, holes and all.
    rmSync(file, { force: true })
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOSPC' || code === 'EDQUOT') throw noRoomToStart(dir, freeBytes(dir) ?? 0, NEW_STATE_BYTES, naming)
    throw unwritable(file, error as NodeJS.ErrnoException, naming)
  }
  closeSync(fd)
}
