// Checks the fields of a parsed JSON body and collects every failure, so one 400 names all of
// them at once (spec section 7: one key per failing field).
import { ErrorCode, type ErrorKind } from './error-codes.js'
import { HttpProblem, type FieldErrors } from './problem.js'

// Control characters would end up in headers or logs; nothing the mock accepts needs them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTERS = /[\0-\x1f\x7f]/
// What Node lets through into a header value without throwing, kept to plain ASCII.
const HEADER_VALUE = /^[\t\x20-\x7e]*$/

interface StringRules {
  maxLength?: number
  /** Refuse control characters, for values that end up in tokens, e-mails and logs. */
  printable?: boolean
  /** Printable ASCII only, for values that become header values (Node throws on anything else). */
  headerValue?: boolean
  /** The form the value must have, and the error a mismatch gets. */
  pattern?: { regex: RegExp; kind: ErrorKind; message: string }
}

// Date.parse takes much more than this; only what the spec's <timestamp> looks like passes.
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/
// The end of year 9999, so every time taken is one the answer's ISO form can give back; a
// millisecond count sent by mistake lies far beyond it.
const MAX_UNIX_SECONDS = 253_402_300_799

/** The spec's form with a real calendar day: Date.parse would take 30 February as 2 March. */
function isIsoTimestamp(text: string): boolean {
  const match = ISO_TIMESTAMP.exec(text)
  if (!match) return false
  const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

// Symfony's loose e-mail check: something, an @, and a host with a dot. Mail is never sent, so
// nothing stricter is needed; whitespace is refused because it cannot be part of an address.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export class FieldValidator {
  // No prototype: a body field named __proto__ must become an error entry, not a prototype lookup.
  readonly errors: FieldErrors = Object.create(null)

  constructor(private readonly body: Record<string, unknown>) {}

  add(field: string, kind: ErrorKind, message: string): void {
    ;(this.errors[field] ??= []).push({ code: ErrorCode[kind], message })
  }

  /** Flags every field not in `known`; for the knob endpoints, where a typo should not pass silently. */
  onlyKnown(known: readonly string[]): void {
    for (const field of Object.keys(this.body)) {
      if (!known.includes(field)) this.add(field, 'noSuchField', 'This field was not expected.')
    }
  }

  string(field: string, rules: StringRules = {}): string | undefined {
    const value = this.body[field]
    if (value === undefined) return undefined
    if (typeof value !== 'string') {
      this.add(field, 'invalidType', 'This value should be of type string.')
      return undefined
    }
    if (rules.maxLength !== undefined && value.length > rules.maxLength) {
      this.add(field, 'tooLong', `This value is too long. It should have ${rules.maxLength} characters or less.`)
      return undefined
    }
    if (rules.printable && CONTROL_CHARACTERS.test(value)) {
      this.add(field, 'invalidCharacters', 'This value contains control characters.')
      return undefined
    }
    if (rules.headerValue && !HEADER_VALUE.test(value)) {
      this.add(field, 'invalidCharacters', 'This value must be printable ASCII: it becomes a header value.')
      return undefined
    }
    if (rules.pattern && !rules.pattern.regex.test(value)) {
      this.add(field, rules.pattern.kind, rules.pattern.message)
      return undefined
    }
    return value
  }

  /** A string, or null where the field may be cleared; undefined when absent or invalid. */
  nullableString(field: string, rules: StringRules = {}): string | null | undefined {
    return this.body[field] === null ? null : this.string(field, rules)
  }

  email(field: string): string | undefined {
    return this.string(field, {
      maxLength: 254,
      pattern: { regex: EMAIL, kind: 'invalidEmail', message: 'This value is not a valid email address.' },
    })
  }

  requiredString(field: string, rules: StringRules = {}): string | undefined {
    if (this.body[field] === undefined || this.body[field] === null || this.body[field] === '') {
      this.add(field, 'isBlank', 'This value should not be blank.')
      return undefined
    }
    return this.string(field, rules)
  }

  choice<T extends string>(field: string, choices: readonly T[]): T | undefined {
    const value = this.body[field]
    if (value === undefined) return undefined
    if (!choices.includes(value as T)) {
      this.add(field, 'notAValidChoice', `The value you selected is not a valid choice. Choose one of: ${choices.join(', ')}.`)
      return undefined
    }
    return value as T
  }

  boolean(field: string): boolean | undefined {
    const value = this.body[field]
    if (value === undefined) return undefined
    if (typeof value !== 'boolean') {
      this.add(field, 'invalidType', 'This value should be of type boolean.')
      return undefined
    }
    return value
  }

  integer(field: string, min: number, max: number, { required = false } = {}): number | undefined {
    const value = this.body[field]
    if (value === undefined) {
      if (required) this.add(field, 'isBlank', 'This value should not be blank.')
      return undefined
    }
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.add(field, 'invalidType', 'This value should be of type integer.')
      return undefined
    }
    if (value < min || value > max) {
      this.add(field, 'notInRange', `This value should be between ${min} and ${max}.`)
      return undefined
    }
    return value
  }

  /**
   * A point in time: ISO 8601 with a UTC offset (the spec's timestamps, `Z` or `+01:00`), or
   * Unix seconds, which older clients send. Undefined when absent or invalid.
   */
  timestamp(field: string): Date | undefined {
    const value = this.body[field]
    if (value === undefined) return undefined
    const time =
      typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_UNIX_SECONDS
        ? value * 1000
        : typeof value === 'string' && isIsoTimestamp(value)
          ? Date.parse(value)
          : NaN
    if (Number.isNaN(time)) {
      this.add(field, 'invalidDateTime', 'This value should be a date and time with an offset (2025-01-31T12:00:00+00:00) or Unix seconds.')
      return undefined
    }
    return new Date(time)
  }

  /** Throws the 400 when anything failed. */
  check(): void {
    if (Object.keys(this.errors).length > 0) {
      throw new HttpProblem(400, 'The submitted data is invalid.', this.errors)
    }
  }
}
