// The shape of a stored record, as a check that says what is wrong with a value. A record's one
// definition stays its TypeScript type (IdentityRecord, ...); its shape is written beside it with
// object<IdentityRecord>({ ... }), which the compiler holds to that type: one check per field,
// none missing or extra, each of the field's exact type (text is no nullable(text), nor
// optional(text)). So the check cannot drift from the type it checks. What a data directory or an
// export holds was written by a version, or a hand, that this one may not agree with: the store
// checks each record with its shape before it imports it or starts a service on it (schema.ts).

/** A check of a JSON value; `T` is the type it admits. */
export interface Shape<T> {
  /** What it admits, for messages: "text", "a whole number", "a list". */
  readonly what: string
  /** True for optional(): its field may be left out. */
  readonly optional?: boolean
  /** What is wrong with `value` at `at` (a path such as `devices[0].createdAt`, or '' for the record), each a clause; none when it is a T. */
  problems(value: unknown, at: string): string[]
  /** For the compiler only: a function both ways, so that a Shape<string> is no Shape<string | null>. */
  readonly type?: (value: T) => T
}

/** How a message shows a value it was given: short, and never a whole object. */
export function shown(value: unknown): string {
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object' && value !== null) return 'an object'
  const json = JSON.stringify(value) ?? String(value)
  return json.length > 40 ? `${json.slice(0, 37)}...` : json
}

/** A clause about the value at `at`; about the record itself when `at` is ''. */
const clause = (at: string, text: string) => (at ? `${at} ${text}` : text)

/** A value `test` admits, described as `what`. */
function leaf<T>(what: string, test: (value: unknown) => boolean): Shape<T> {
  return { what, problems: (value, at) => (test(value) ? [] : [clause(at, `must be ${what}, not ${shown(value)}`)]) }
}

export const text: Shape<string> = leaf('text', (value) => typeof value === 'string')

export const wholeNumber: Shape<number> = leaf('a whole number', (value) => Number.isSafeInteger(value))

export const flag: Shape<boolean> = leaf('true or false', (value) => typeof value === 'boolean')

// What toISOString() writes; a hand may leave out the time, or write another zone. Date.parse
// alone would take "March 7", read in whatever zone the machine is in.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/

/** A time as its record keeps it: ISO 8601 text, which the store reads back with new Date(). */
export const timestamp: Shape<string> = leaf(
  'a time as ISO 8601 text (2026-01-02T03:04:05.000Z)',
  (value) => typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value)),
)

export function oneOf<const V extends string>(values: readonly V[]): Shape<V> {
  const names = values.map((value) => JSON.stringify(value))
  return leaf(`one of ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`, (value) => (values as readonly unknown[]).includes(value))
}

export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  return {
    what: `${shape.what} or null`,
    problems: (value, at) =>
      value === null || shape.problems(value, at).length === 0 ? [] : [clause(at, `must be ${shape.what} or null, not ${shown(value)}`)],
  }
}

/** A field that may be left out (JSON has no undefined: a record without it). */
export function optional<T>(shape: Shape<T>): Shape<T | undefined> {
  return { what: shape.what, optional: true, problems: (value, at) => (value === undefined ? [] : shape.problems(value, at)) }
}

export function list<T>(item: Shape<T>): Shape<T[]> {
  return {
    what: `a list of ${item.what}`,
    problems: (value, at) =>
      Array.isArray(value) ? value.flatMap((entry, index) => item.problems(entry, `${at}[${index}]`)) : [clause(at, `must be a list, not ${shown(value)}`)],
  }
}

/** A JSON object: not null, and not a list. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** And-joined: "a, b and c". */
const listed = (names: string[]) => (names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`)

/**
 * An object of exactly these fields, one shape per field of T (written object<SomeRecord>(...),
 * the compiler holds the two together). A field it does not know is wrong too: a hand's typo
 * ("nicknmae") would otherwise be dropped unnoticed.
 */
export function object<T>(fields: { [K in keyof T]-?: Shape<T[K]> }): Shape<T> {
  const entries = Object.entries(fields) as [string, Shape<unknown>][]
  return {
    what: 'an object',
    problems(value, at) {
      if (!isObject(value)) return [clause(at, `must be an object, not ${shown(value)}`)]
      const problems: string[] = []
      const missing = entries.filter(([name, shape]) => !shape.optional && !Object.hasOwn(value, name)).map(([name]) => name)
      if (missing.length) problems.push(clause(at, `lacks ${listed(missing)}`))
      const unknown = Object.keys(value).filter((name) => !Object.hasOwn(fields, name))
      if (unknown.length) problems.push(clause(at, `has ${listed(unknown)}, which this version does not store`))
      for (const [name, shape] of entries) {
        if (Object.hasOwn(value, name)) problems.push(...shape.problems(value[name], at ? `${at}.${name}` : name))
      }
      return problems
    },
  }
}

/** What the store keeps of one collection: the shape of its records, and the field, if any, that holds the key each is stored under. */
export interface RecordKind<T> {
  shape: Shape<T>
  /** The field that must equal the record's key: a record stored under another key would outlive its deletion. */
  key?: { field: string; of(record: T): unknown }
}

/** What is wrong with `record`, stored under `key`, as a record of `kind`: clauses, none when it is right. */
export function recordProblems<T>(kind: RecordKind<T>, key: string, record: unknown): string[] {
  const problems = kind.shape.problems(record, '')
  if (problems.length === 0 && kind.key) {
    const value = kind.key.of(record as T)
    if (value !== key) problems.push(`${kind.key.field} is ${shown(value)}, not the key it is stored under`)
  }
  return problems
}
