// What a store refuses, as one error class: the message is for people and says what to do; `code`
// tells a program which refusal it was, so that nobody has to match the words.

export type StoreErrorCode =
  /** The data directory is held by another running process (`ownerPid` names it when it said). */
  | 'in-use'
  /** A collection the store does not keep, or a name that cannot be one. */
  | 'collection'
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
