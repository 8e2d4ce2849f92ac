// What a store refuses, as one error class: the message is for people and says what to do; `code`
// tells a program which refusal it was, so that nobody has to match the words.

export type StoreErrorCode =
  /** The data directory is held by another running process (`ownerPid` names it when it said). */
  | 'in-use'
  /** A collection the store does not keep, or a name that cannot be one. */
  | 'collection'
  /** A record this version cannot read: in a file to import, or in a data directory (written by another version, or by hand). */
  | 'record'
  /** The data directory's disk has no room for the change (or, at start, for the store). */
  | 'full'
  /** The data directory cannot be written: a read-only file system, or no permission. */
  | 'unwritable'
  /** Another user can write the data directory or one of its files. */
  | 'not-private'
  /** The owner's socket, owner.sock, is something else, or cannot be checked or replaced. */
  | 'owner-socket'
  /** A change was not committed for another reason, which the message names. */
  | 'write'

/**
 * How the opener of a data directory names one, for a refusal's "what to do": the command's
 * `--data` and `--in-memory` (state-options.ts derives them from its table of options), or
 * openDataStore's argument and memoryStore() for a caller in JavaScript, who has no flags.
 */
export interface DirectoryNaming {
  /** How to give `directory` instead: "name another directory with --data", "pass another directory to openDataStore". */
  name(directory: string): string
  /** How to keep nothing on disk: "--in-memory", "memoryStore()". */
  inMemory: string
  /**
   * How to carry the state of `directory` into a new one, for a data file that may not be whole
   * (a failed flush): "export its state with --data DIR --export FILE and start … --import FILE".
   */
  moveToNew(directory: string): string
}

/** openDataStore's naming: its argument, and memoryStore() for a store that keeps nothing. */
export const OPEN_DATA_STORE_NAMING: DirectoryNaming = {
  name: (directory) => `pass ${directory} to openDataStore`,
  inMemory: 'memoryStore()',
  moveToNew: (directory) =>
    `export the state of ${directory} with the store's export() and import it with import() into a store of a new directory (openDataStore)`,
}

/** The sentence's first letter in capitals, for a naming that starts one. */
export const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)

export class StoreError extends Error {
  override readonly name = 'StoreError'
  readonly code: StoreErrorCode
  /** For `in-use`: the process that holds the directory, when it answered with its pid. */
  readonly ownerPid: number | undefined

  constructor(message: string, { code, ownerPid, cause }: { code: StoreErrorCode; ownerPid?: number; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause })
    this.code = code
    this.ownerPid = ownerPid
  }
}
