// Room in state.mdb for LMDB to write into, made ahead of it. LMDB must never meet a full disk:
// lmdb-js (3.5) reports the failed commit, and then, within a few more writes, the process dies
// of a corrupted heap (SIGABRT, "malloc(): invalid size"), or of an unhandled rejection of a
// promise lmdb-js makes for itself (its issue 368). Measured: 2 MiB tmpfs, 3,000 enrolments,
// every run died, with event-turn batching and overlapping sync on or off.
//
// LMDB, without MDB_WRITEMAP as here, writes each page with pwrite at its place in the file: into
// blocks the file has already, that takes nothing more from the disk. So the store writes zeros
// past the end of the file, ahead of LMDB's last page, and keeps at least MIN_ROOM of them while
// the disk gives them; when it gives no more and less than that is left, writes are refused (the
// service answers 507) before LMDB could run out. The zeros are never read: LMDB reads only the
// pages its meta page leads to, and past its last page it writes before it reads.
//
// A copy-on-write file system (btrfs, ZFS, APFS) needs new blocks for an overwrite too: there,
// this room is no guarantee, and a disk filled by others can still reach LMDB.
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { freeBytes } from './data-directory.js'
import { StoreError } from './errors.js'

/** LMDB's page here; what a write is counted to take at least, as it copies the page it changes. */
const PAGE = 4096
/** With less room than this ahead of LMDB, writes are refused... */
export const MIN_ROOM = 256 * 1024
/** ...until there is this much again: without the margin, each write that settles would let the next one in, and the answers would flap. */
const RESUME_ROOM = 2 * MIN_ROOM
/** With less than this, the file is grown, to GROW_TO or as far as the disk allows. */
const GROW_BELOW = 1024 * 1024
const GROW_TO = 2 * 1024 * 1024
const ZEROS = Buffer.alloc(64 * 1024)

const kib = (bytes: number) => `${Math.max(0, Math.floor(bytes / 1024))} KiB`

/** What the room needs of LMDB. */
export interface LmdbFile {
  /** The bytes up to the end of LMDB's last page, as of its last commit. */
  used(): number
  /** Runs `grow` while no commit can write the file: under LMDB's write lock. */
  exclusive(grow: () => void): void
}

export class DataFileRoom {
  readonly #fd: number
  /** What the writes on their way to LMDB may take of the room, counted until they settle. */
  #inFlight = 0
  /** Why the last growth failed, when it was not for want of space. */
  #growError: Error | undefined
  /** Writes are refused until there is RESUME_ROOM again. */
  #refusing = false
  /**
   * The room at the last measure, less what the writes counted since may take: measuring (a
   * stat and LMDB's) costs as much as a third of a write, so it is done again only when this runs low.
   */
  #estimate = 0

  constructor(
    readonly file: string,
    /** The data directory, for messages. */
    readonly location: string,
    private readonly lmdb: LmdbFile,
  ) {
    this.#fd = openSync(file, 'r+')
  }

  /** Counts a write of `bytes` (key and value) until `settled`, as the pages it may take. */
  track(bytes: number, settled: Promise<unknown>): void {
    // Twice the bytes: a page split leaves two half pages. Plus the page it copies.
    const taken = PAGE + 2 * bytes
    this.#inFlight += taken
    this.#estimate -= taken
    const done = () => {
      this.#inFlight -= taken
    }
    settled.then(done, done)
  }

  /** Refuses a write when the room is too small and cannot be grown; grows it first when it runs low. */
  refusal(): StoreError | undefined {
    if (!this.#refusing && this.#estimate >= GROW_BELOW) return undefined
    this.#estimate = this.room()
    if (this.#estimate >= GROW_BELOW) {
      this.#refusing = false
      return undefined
    }
    this.#grow()
    const room = (this.#estimate = this.room())
    this.#refusing = room < (this.#refusing ? RESUME_ROOM : MIN_ROOM)
    if (!this.#refusing) return undefined
    if (this.#growError) {
      return new StoreError(`The change cannot be stored: ${this.file} cannot grow (${this.#growError.message}).`, {
        code: 'write',
        cause: this.#growError,
      })
    }
    return new StoreError(
      `The change cannot be stored: the disk of ${this.location} is full (${kib(room)} left in ${this.file}, ${kib(freeBytes(this.location) ?? 0)} free on the disk). ` +
        'Free some space there: changes are stored again as soon as there is room, without a restart.',
      { code: 'full' },
    )
  }

  /** The bytes LMDB can still write without the disk, as far as the writes in flight leave them. */
  room(): number {
    return fstatSync(this.#fd).size - this.lmdb.used() - this.#inFlight
  }

  close(): void {
    closeSync(this.#fd)
  }

  /** Zeros past the end of the file, up to GROW_TO of room or until the disk is full. */
  #grow(): void {
    const free = freeBytes(dirname(this.file))
    if (free !== undefined && free < PAGE) return
    this.#growError = undefined
    this.lmdb.exclusive(() => {
      // Measured again under the lock: a commit may have grown the file meanwhile.
      let size = fstatSync(this.#fd).size
      const target = Math.max(size, this.lmdb.used() + this.#inFlight + GROW_TO)
      try {
        while (size < target) size += writeSync(this.#fd, ZEROS, 0, Math.min(ZEROS.length, target - size), size)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        // The disk gave what it had: the room is what it is.
        if (code !== 'ENOSPC' && code !== 'EDQUOT' && code !== 'EFBIG') this.#growError = error as Error
      }
    })
  }
}
