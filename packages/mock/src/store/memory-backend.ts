// The backend of `--in-memory`, the tests and startMockService(): the records in maps, gone with
// the process. Every write is "stored" at once, so no answer waits.
import type { Backend } from './store.js'

export class MemoryBackend implements Backend {
  readonly location = 'memory'
  readonly collections: readonly string[]
  readonly #records = new Map<string, Map<string, string>>()

  /** `collections`: every name it keeps, the mock's and the caller's (collectionNames()). */
  constructor({ collections }: { collections: readonly string[] }) {
    this.collections = collections
  }

  entries(collection: string): Iterable<[string, string]> {
    return [...(this.#records.get(collection) ?? [])]
  }

  write(collection: string, id: string, text: string | undefined): undefined {
    let records = this.#records.get(collection)
    if (!records) this.#records.set(collection, (records = new Map()))
    if (text === undefined) records.delete(id)
    else records.set(id, text)
    return undefined
  }

  clear(collection: string): undefined {
    this.#records.delete(collection)
    return undefined
  }

  flushed(): undefined {
    return undefined
  }

  /** Memory takes every write. */
  refusal(): undefined {
    return undefined
  }

  async close(): Promise<void> {
    this.#records.clear()
  }
}
