// What a data directory holds, and which version of it this code reads. Raise SCHEMA_VERSION
// with any change to a record's shape that older code would misread: lmdb-backend.ts refuses a
// directory of another version with a message that says what to do, and is where a migration
// from the old version would go. A directory is never silently misread: a record of the mock's
// that is not of its shape (MOCK_RECORDS), in a directory or a file to import, is refused too
// (bad-records.ts), naming it.
import { CHALLENGE_RECORDS } from '../service/challenges/challenge-store.js'
import { CONFIGURATION_RECORDS } from '../service/configuration/configuration-store.js'
import { ENROLLMENT_RECORDS } from '../service/enrollments/enrollment-store.js'
import { OUTBOX_RECORDS } from '../service/enrollments/outbox.js'
import { IDENTITY_RECORDS } from '../service/identities/identity-store.js'
import { SESSION_RECORDS } from '../service/sessions/session-store.js'
import { StoreError } from './errors.js'
import { type RecordKind, recordProblems } from './record-shape.js'
import { CREDENTIALS_RECORDS } from './remembered-credentials.js'

export const SCHEMA_VERSION = 1

/**
 * The mock service's kinds of record by collection, each kept by its own store class, with the
 * shape its records are checked against (written beside its type: record-shape.ts). Whoever opens
 * a store may keep collections of its own beside these (StoreOptions.collections): an app under
 * test that shares the store with the mock, to keep its users and sessions there, say.
 */
const MOCK_RECORDS = {
  // The key and secret made up at a first start, so a restart keeps them (remembered-credentials.ts).
  credentials: CREDENTIALS_RECORDS,
  // The service's (service/*/...-store.ts).
  challenges: CHALLENGE_RECORDS,
  identities: IDENTITY_RECORDS,
  enrollments: ENROLLMENT_RECORDS,
  sessions: SESSION_RECORDS,
  configurations: CONFIGURATION_RECORDS,
  outbox: OUTBOX_RECORDS,
}

export type MockCollectionName = keyof typeof MOCK_RECORDS

/** The mock service's collections, in the order of MOCK_RECORDS. */
export const MOCK_COLLECTIONS = Object.keys(MOCK_RECORDS) as readonly MockCollectionName[]

/**
 * What is wrong with `record`, stored under `key` in `collection`, for this version: clauses, none
 * when it reads it. The records of a collection that is not the mock's are their keeper's, who
 * alone knows their shape: only their being objects is checked (by the store).
 */
export function recordProblemsIn(collection: string, key: string, record: unknown): string[] {
  const kind = Object.hasOwn(MOCK_RECORDS, collection) ? (MOCK_RECORDS[collection as MockCollectionName] as RecordKind<unknown>) : undefined
  return kind ? recordProblems(kind, key, record) : []
}

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
