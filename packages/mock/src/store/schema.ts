// What a data directory holds, and which version of it this code reads. Raise SCHEMA_VERSION
// with any change to a record's shape that older code would misread: lmdb-backend.ts refuses a
// directory of another version with a message that says what to do, and is where a migration
// from the old version would go. A directory is never silently misread.
import { StoreError } from './errors.js'

export const SCHEMA_VERSION = 1

/**
 * The mock service's kinds of record, each kept by its own store class. Whoever opens a store may
 * keep collections of its own beside these (StoreOptions.collections): an app under test that
 * shares the store with the mock, to keep its users and sessions there, say.
 */
export const MOCK_COLLECTIONS = [
  // The key and secret made up at a first start, so a restart keeps them (remembered-credentials.ts).
  'credentials',
  // The service's (service/*/...-store.ts).
  'challenges',
  'identities',
  'enrollments',
  'sessions',
  'configurations',
  'outbox',
] as const

export type MockCollectionName = (typeof MOCK_COLLECTIONS)[number]

/** The sub-database of the directory's own data (schema version, owner): no collection may be named so. */
export const META = 'meta'

// A letter, then letters, digits and dashes: a name that reads the same in an export, a message
// and LMDB, and that no one mistakes for a path.
const COLLECTION_NAME = /^[a-z][a-z0-9-]{0,63}$/

/** The mock's collections and then the caller's, checked: a caller's may not take a name of the mock's, or be odd. */
export function collectionNames(own: readonly string[] = []): string[] {
  // A string is iterable too: collections: 'app-users' would be a collection per letter, and a data directory made for them.
  if (!Array.isArray(own)) throw new TypeError(`collections must be a list of names, such as ['app-users'], not ${JSON.stringify(own)}.`)
  const names: string[] = [...MOCK_COLLECTIONS]
  for (const name of own) {
    if (!COLLECTION_NAME.test(name) || name === META) {
      throw new StoreError(`"${name}" cannot name a collection: use lowercase letters, digits and dashes, starting with a letter (and not "${META}").`, {
        code: 'collection',
      })
    }
    if (names.includes(name)) {
      const whose = (MOCK_COLLECTIONS as readonly string[]).includes(name) ? 'the mock service keeps one by that name' : 'it is named twice'
      throw new StoreError(`The collection "${name}" cannot be added: ${whose}.`, { code: 'collection' })
    }
    names.push(name)
  }
  return names
}

/** What `--export` writes and `--import` reads, named so that no other JSON passes for it. */
export const STATE_FILE_FORMAT = 'service-auth-state'
