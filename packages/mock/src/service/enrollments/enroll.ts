// POST /v1/entity/identities/enroll (spec section 4, "Enroll identity"): creates the identity or
// updates it, and makes a new enrollment token, shown as a QR code and, if asked, "e-mailed"
// into the outbox. 201 for a new identity, 200 for a known one.
//
// The official clients send every field with its default on every call: `nickname: null`,
// `sendEmailTo: ""` (.NET also `nickname: ""`, as it cannot send null), `enrollmentType`. A blank
// or null optional field therefore means "not given": a re-enrollment keeps the nickname. Fields
// the mock does not know are ignored, as the real service ignores what it does not use.
import { FieldValidator, parseJsonObject, sendJson } from '@service-auth/http'
import type { SignedExchange, SignedHandler } from '../context.js'
import { composeEnrollmentEmail } from './enrollment-email.js'
import { enrollmentQrText, MAX_ENROLLMENT_TIMEOUT_SECONDS } from './enrollment-store.js'
import { readIdentifier, readNickname, readRole } from '../identities/identity-fields.js'
import { identityJson } from '../identities/identity-json.js'
import { renderQrPng } from '../challenges/qr-images.js'
import { toTimestamp } from '../timestamps.js'

// A language, optionally with a region or script: en, de-CH, pt_BR, zh-Hant.
const LOCALE = /^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{2,8})*$/
// An identifier that is an e-mail address is where the mail goes when sendEmailTo is absent.
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const ENROLLMENT_TYPES = ['ONE_STEP_ENROLLMENT', 'TWO_STEP_ENROLLMENT']
// An IANA name (Europe/Berlin, America/Argentina/Buenos_Aires, UTC, Etc/GMT+2), checked against Intl after this.
const TIME_ZONE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/

interface EnrollInput {
  identifier: string
  nickname: string | undefined
  role: string | undefined
  timeoutSeconds: number | undefined
  /** Where to send the e-mail; undefined for none. */
  emailTo: string | undefined
  emailLocale: string | undefined
  /** The e-mail gives the expiry in this zone; UTC without it. */
  emailTimeZone: string | undefined
}

function readEnrollInput({ req, body }: SignedExchange): EnrollInput {
  const fields = new FieldValidator(withoutBlanks(parseJsonObject(body, req.headers['content-type'])))
  const identifier = readIdentifier(fields)
  const nickname = readNickname(fields)
  const role = readRole(fields)
  // Validated so a typo is caught; both kinds enroll the same way here, as the phone is simulated.
  fields.choice('enrollmentType', ENROLLMENT_TYPES)
  const timeoutSeconds = fields.integer('timeout', 1, MAX_ENROLLMENT_TIMEOUT_SECONDS)
  const sendEmail = fields.boolean('sendEmail') ?? false
  const sendEmailTo = fields.email('sendEmailTo')
  const emailLocale = fields.string('sendEmailLocale', {
    maxLength: 35,
    pattern: { regex: LOCALE, kind: 'invalidLocale', message: 'This value is not a valid locale.' },
  })
  const emailTimeZone = fields.string('sendEmailTimeZone', {
    maxLength: 64,
    pattern: { regex: TIME_ZONE, kind: 'invalidTimeZone', message: 'This value is not a valid time zone.' },
  })
  if (emailTimeZone !== undefined && !isTimeZone(emailTimeZone)) {
    fields.add('sendEmailTimeZone', 'invalidTimeZone', 'This value is not a valid time zone.')
  }
  let emailTo: string | undefined
  if (sendEmail) {
    emailTo = sendEmailTo ?? (identifier && LOOKS_LIKE_EMAIL.test(identifier) ? identifier : undefined)
    if (emailTo === undefined && !fields.errors.sendEmailTo) {
      fields.add('sendEmailTo', 'isBlank', 'sendEmail needs sendEmailTo when the identifier is not an e-mail address.')
    }
  }
  fields.check()
  return { identifier: identifier!, nickname: nickname ?? undefined, role, timeoutSeconds, emailTo, emailLocale, emailTimeZone }
}

const BLANK_MEANS_ABSENT = ['nickname', 'role', 'sendEmailTo', 'sendEmailLocale', 'sendEmailTimeZone', 'enrollmentType']

function withoutBlanks(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([name, value]) => !(BLANK_MEANS_ABSENT.includes(name) && (value === '' || value === null))))
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
}

export const enroll: SignedHandler = async (context, exchange) => {
  const input = readEnrollInput(exchange)
  const { app } = exchange.key
  // Everything is valid: only from here on does the request change state.
  let identity = context.stores.identities.get(app, input.identifier)
  const created = identity === undefined
  if (identity) context.stores.identities.update(identity, { nickname: input.nickname, role: input.role })
  else identity = context.stores.identities.create(app, input.identifier, { nickname: input.nickname, role: input.role })
  const timeout = input.timeoutSeconds ?? context.settings.enrollmentTimeoutSeconds
  const enrollment = context.stores.enrollments.create(app, identity.id, timeout)

  const qrText = enrollmentQrText(enrollment.id)
  const png = await renderQrPng(qrText)
  const json = {
    id: enrollment.id,
    createdAt: toTimestamp(enrollment.createdAt),
    expiresAt: toTimestamp(enrollment.expiresAt),
    base64ImageData: png.toString('base64'),
    identity: identityJson(identity, context.stores.sessions),
  }
  if (input.emailTo !== undefined) {
    const email = {
      to: input.emailTo,
      requestedLocale: input.emailLocale,
      timeZone: input.emailTimeZone,
      label: json.identity.label,
      identifier: identity.identifier,
      enrollmentId: enrollment.id,
      qrText,
      expiresAt: json.expiresAt,
      png,
    }
    context.stores.outbox.add(composeEnrollmentEmail(email, json.createdAt))
  }
  sendJson(exchange.res, created ? 201 : 200, json)
}
