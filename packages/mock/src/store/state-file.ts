// The JSON an export writes and an import reads, and its check: the whole file, every record of
// it, before an import writes anything. Also how a refusal names records that are not what their
// collection holds, in a file or in a data directory (Store.checkRecords).
import { StoreError } from './errors.js'
import { recordProblemsIn, SCHEMA_VERSION, STATE_FILE_FORMAT } from './schema.js'

/** The JSON an export writes and an import reads. */
export interface StateFile {
  format: typeof STATE_FILE_FORMAT
  schema: number
  exportedAt: string
  collections: Record<string, Record<string, unknown>>
}

/** A record that is not what its collection holds, and why. */
export interface BadRecord {
  collection: string
  id: string
  problems: string[]
}

/**
 * "a record this version cannot `verb` (`origin`): what is wrong with it", or the first of
 * several, naming a few of the others: one line, however many a hand got wrong.
 */
export function badRecords(bad: BadRecord[], verb: string, origin = ''): string {
  const [first] = bad as [BadRecord]
  const wrong = `${named(first)}: ${first.problems.join('; ')}`
  if (bad.length === 1) return `a record this version cannot ${verb}${origin}: ${wrong}`
  const names = bad.slice(0, 4).map(named).join(', ') + (bad.length > 4 ? ', ...' : '')
  return `${bad.length} records this version cannot ${verb}${origin} (${names}); the first, ${wrong}`
}

const named = ({ collection, id }: BadRecord) => `${collection} ${JSON.stringify(id)}`

/**
 * The collections of an export, checked whole (StateFile's format and schema, the collections
 * `collections` names, every record's shape); a refusal names `source`. For Store.import, and
 * for whoever reads a file before making the store it seeds (openState).
 */
export function checkedStateFile(
  file: unknown,
  { source, collections: kept }: { source: string; collections: readonly string[] },
): Record<string, Record<string, unknown>> {
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
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
  const bad: BadRecord[] = []
  for (const [name, records] of Object.entries(file.collections as Record<string, Record<string, unknown>>)) {
    for (const [id, record] of Object.entries(records)) {
      // Any collection's: a record that is no object (the text an export keeps of a record that
      // was no JSON, say) is named like any other bad one.
      const problems = isObject(record) ? recordProblemsIn(name, id, record) : ['must be an object']
      if (problems.length) bad.push({ collection: name, id, problems })
    }
  }
  if (bad.length) {
    throw new StoreError(
      `${source} holds ${badRecords(bad, 'import')}. Nothing was imported: correct or remove ${bad.length === 1 ? 'that record' : 'those records'} in ${source}, or make the file again with --export.`,
      { code: 'record' },
    )
  }
  return file.collections as Record<string, Record<string, unknown>>
}
