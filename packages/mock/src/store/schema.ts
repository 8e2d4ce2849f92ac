// What a data directory holds, and which version of it this code reads. Raise SCHEMA_VERSION
// with any change to a record's shape that older code would misread: open-store.ts refuses a
// directory of another version with a message that says what to do, and is where a migration
// from the old version would go. A directory is never silently misread.

export const SCHEMA_VERSION = 1

/** The kinds of record, each kept by its own store class. */
export const COLLECTIONS = [
  // The key and secret made up at a first start, so a restart keeps them (remembered-credentials.ts).
  'credentials',
  // The service's (demo/service/*/...-store.ts).
  'challenges',
  'identities',
  'enrollments',
  'sessions',
  'configurations',
  'outbox',
  // The demo app's (demo/app/users.ts, sessions.ts).
  'app-users',
  'app-sessions',
] as const

export type CollectionName = (typeof COLLECTIONS)[number]

/** What `--export` writes and `--import` reads, named so that no other JSON passes for it. */
export const STATE_FILE_FORMAT = 'service-auth-state'
