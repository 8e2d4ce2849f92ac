// The backend of `--in-memory`, the tests and startMockService(): the records in maps, gone with
// the process. Every write is "stored" at once, so no answer waits.
import type { Backend } from './store.ts'
import type { CollectionName } from './schema.ts'

export class MemoryBackend implements Backend {
  readonly location = 'memory'
  readonly #collections = new Map<CollectionName, Map<string, string>>()

  entries(collection: CollectionName): Iterable<[string, string]> {
    return [...(this.#collections.get(collection) ?? [])]
  }

  write(collection: CollectionName, id: string, text: string | undefined): undefined {
    let records = this.#collections.get(collection)
    if (!records) this.#collections.set(collection, (records = new Map()))
    if (text === undefined) records.delete(id)
    else records.set(id, text)
    return undefined
  }

  clear(collection: CollectionName): undefined {
    this.#collections.delete(collection)
    return undefined
  }

  flushed(): undefined {
    return undefined
  }

  async close(): Promise<void> {
    this.#collections.clear()
  }
}
