// What a store refuses, as one error class: the message is for people and says what to do; `code`
// tells a program which refusal it was, so that nobody has to match the words.

export type StoreErrorCode =
  /** The data directory is held by another running process (`ownerPid` names it when it said). */
  | 'in-use'
  /** A collection the store does not keep, or a name that cannot be one. */
  | 'collection'

export class StoreError extends Error {
  override readonly name = 'StoreError'
  readonly code: StoreErrorCode
  /** For `in-use`: the process that holds the directory, when it answered with its pid. */
  readonly ownerPid: number | undefined

  constructor(message: string, { code, ownerPid }: { code: StoreErrorCode; ownerPid?: number }) {
    super(message)
    this.code = code
    this.ownerPid = ownerPid
  }
}
