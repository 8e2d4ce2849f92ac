// Which records are not what their collection holds, and how a refusal names them: one check
// for a data directory as it is opened (Store.checkRecords) and for a file to import
// (checkedStateFile), so that the two cannot come to disagree on what a bad record is.
import { isObject } from './record-shape.js'
import { recordProblemsIn } from './schema.js'

/** A record that is not what its collection holds, and why. */
export interface BadRecord {
  collection: string
  id: string
  problems: string[]
}

/** One record as read: its collection, its id, and its value (NotJson where its text was none). */
export type RecordEntry = readonly [collection: string, id: string, value: unknown]

/**
 * A stored record's text that is no JSON (a damaged disk, a hand). Kept, not dropped: the
 * check names the record, and an export writes the text as it is, so that nothing stored is lost
 * on the way out that the refusal names.
 */
export class NotJson {
  constructor(readonly text: string) {}
}

/** A stored record's value: its text parsed, or NotJson holding the text where that is no JSON. */
export function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return new NotJson(text)
  }
}

/**
 * The bad records among `entries`, in their order. Every record is a JSON object, whatever its
 * collection (Collection.put takes nothing else); the mock's are also held to their shapes. So a
 * directory and its export agree: an export writes a record that was no JSON as its text, which
 * an import then names, as opening the directory did.
 */
export function badRecordsAmong(entries: Iterable<RecordEntry>): BadRecord[] {
  const bad: BadRecord[] = []
  for (const [collection, id, value] of entries) {
    const problems = value instanceof NotJson ? ['is not JSON'] : !isObject(value) ? ['must be an object'] : recordProblemsIn(collection, id, value)
    if (problems.length) bad.push({ collection, id, problems })
  }
  return bad
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
