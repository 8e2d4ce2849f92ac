// One constant UUID per kind of field error, as the service's 400 responses carry them (spec
// section 7). Where a kind matches a Symfony validator constraint the same UUID is reused,
// because the real service's codes look like those and clients may already compare them.
export const ErrorCode = {
  /** A required field is missing or empty (Symfony NotBlank::IS_BLANK_ERROR). */
  isBlank: 'c1051bb4-d103-4f74-8988-acbcafc7fdc3',
  /** The value is not one of the allowed choices (Symfony Choice::NO_SUCH_CHOICE_ERROR). */
  notAValidChoice: '8e179f1b-97aa-4560-a02f-2a8b42e49df7',
  /** The value has the wrong JSON type (Symfony Type::INVALID_TYPE_ERROR). */
  invalidType: 'ba785a8c-82cb-4283-967c-3cf342181b40',
  /** A number outside its allowed range (Symfony Range::NOT_IN_RANGE_ERROR). */
  notInRange: '04b91c99-a946-4221-afc5-e65ebac401eb',
  /** A string longer than allowed (Symfony Length::TOO_LONG_ERROR). */
  tooLong: 'd94b19cc-114f-4f44-9cc4-4138e80a87b9',
  /** The value is taken by another record (Symfony UniqueEntity::NOT_UNIQUE_ERROR). */
  notUnique: '23bd9dbf-6b9b-41cd-a99e-4844bcf3077f',
  /** Not an e-mail address (Symfony Email::INVALID_FORMAT_ERROR). */
  invalidEmail: 'bd79c0ab-ddba-46cc-a703-a7a4b08de310',
  /** Not a locale such as `en` or `de-CH` (Symfony Locale::NO_SUCH_LOCALE_ERROR). */
  invalidLocale: 'a0af4293-1f1a-4a1c-a328-979cba6182a2',
  /** The value does not have the required form (Symfony Regex::REGEX_FAILED_ERROR). */
  patternMismatch: 'de1e3db3-5ed4-4941-aae4-59f3667cc3a3',
  /** Not a date and time such as `2025-01-31T12:00:00+00:00` (Symfony DateTime::INVALID_FORMAT_ERROR). */
  invalidDateTime: '1a9da513-2640-4f84-9b6a-4d99dcddc628',
  /** Not a time zone such as `Europe/Berlin` (Symfony Timezone::TIMEZONE_IDENTIFIER_ERROR). */
  invalidTimeZone: '5ce113e6-5e64-4ea2-90fe-d2233956db13',
  /** Two fields that must agree do not (Symfony EqualTo::NOT_EQUAL_ERROR). */
  notEqual: '478618a7-95ba-473d-9101-cabd45e49115',
  /** A field the endpoint does not know (Symfony Collection::NO_SUCH_FIELD_ERROR). */
  noSuchField: '7703c766-b5d5-4cef-ace7-ae0dd82304e9',
  /** A string with characters that are not allowed here (control characters, say). */
  invalidCharacters: '24adc0c9-4eb7-4934-a1f0-51789e44b041',
  /** The body is not JSON, or not a JSON object. */
  malformedBody: '7e3b2b05-3fff-4474-ba8b-dcd95f4eaa73',
} as const

export type ErrorKind = keyof typeof ErrorCode
