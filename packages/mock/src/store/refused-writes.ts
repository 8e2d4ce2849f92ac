// The changes a store refused while its disk was full. The service changed its memory before it
// wrote (a knob's signing, a challenge's expiry, a sweep), so without them the running service
// would show what its data directory lacks until it restarts. Kept here, each record's latest
// text (or its removal) and each collection's clear, they are written the moment there is room
// again, and the two agree once more.

/** What is to be written of one collection: a clear first, when one was refused, then its records. */
export interface RefusedChanges {
  collection: string
  cleared: boolean
  /** By id: the text to write, or undefined to remove the record. */
  records: Map<string, string | undefined>
}

export class RefusedWrites {
  readonly #changes = new Map<string, RefusedChanges>()

  get size(): number {
    return this.#changes.size
  }

  /** A write of a record, refused: a later one of the same record replaces it. */
  write(collection: string, id: string, text: string | undefined): void {
    this.#of(collection).records.set(id, text)
  }

  /** A clear of a collection, refused: the collection's writes refused before it go with it. */
  clear(collection: string): void {
    this.#changes.set(collection, { collection, cleared: true, records: new Map() })
  }

  /** Every refused change, to be written now; none is kept. */
  take(): RefusedChanges[] {
    const changes = [...this.#changes.values()]
    this.#changes.clear()
    return changes
  }

  #of(collection: string): RefusedChanges {
    let changes = this.#changes.get(collection)
    if (!changes) this.#changes.set(collection, (changes = { collection, cleared: false, records: new Map() }))
    return changes
  }
}
