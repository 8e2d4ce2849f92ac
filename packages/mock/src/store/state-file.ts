// The JSON an export writes and an import reads, and its check: the whole file, every record of
// it, before an import writes anything.
import { badRecords, badRecordsAmong, type RecordEntry } from './bad-records.js'
import { StoreError } from './errors.js'
import { isObject } from './record-shape.js'
import { SCHEMA_VERSION, STATE_FILE_FORMAT } from './schema.js'

/** The JSON an export writes and an import reads. */
export interface StateFile {
  format: typeof STATE_FILE_FORMAT
  schema: number
  exportedAt: string
  collections: Record<string, Record<string, unknown>>
}

/**
 * The collections of an export, checked whole (StateFile's format and schema, the collections
 * `collections` names, every record's shape); a refusal names `source`. For Store.import, and
 * for whoever reads a file before making the store it seeds (openState).
 */
export function checkedStateFile(
  file: unknown,
  { source, collections: kept }: { source: string; collections: readonly string[] },
): Record<string, Record<string, unknown>> {
  if (!isObject(file) || file.format !== STATE_FILE_FORMAT) {
    throw new Error(`${source} is not a service-auth state export (its "format" is not "${STATE_FILE_FORMAT}"); make one with --export.`)
  }
  if (file.schema !== SCHEMA_VERSION) {
    throw new Error(
      `${source} holds state of schema ${JSON.stringify(file.schema)}, and this version reads schema ${SCHEMA_VERSION}: import it with the version that exported it.`,
    )
  }
  if (!isObject(file.collections)) throw new Error(`${source} has no "collections" object.`)
  for (const [name, records] of Object.entries(file.collections)) {
    // Another program's (an app that shares the store) or another version's: the mock cannot tell
    // what it means, so it does not keep it where nobody would read it.
    if (!kept.includes(name)) {
      throw new StoreError(
        `${source} names a collection this store does not keep: ${name} (it keeps ${kept.join(', ')}). Import it with the program that exported it.`,
        {
          code: 'collection',
        },
      )
    }
    if (!isObject(records)) throw new Error(`${source}: ${name} must be an object of records by id.`)
  }
  const collections = file.collections as Record<string, Record<string, unknown>>
  const entries = Object.entries(collections).flatMap(([name, records]) => Object.entries(records).map(([id, record]): RecordEntry => [name, id, record]))
  const bad = badRecordsAmong(entries)
  if (bad.length) {
    throw new StoreError(
      `${source} holds ${badRecords(bad, 'import')}. Nothing was imported: correct or remove ${bad.length === 1 ? 'that record' : 'those records'} in ${source}, or make the file again with --export.`,
      { code: 'record' },
    )
  }
  return collections
}
