// The enrollment e-mail (spec section 4, Enroll: sendEmail, sendEmailTo, sendEmailLocale, and the
// clients' sendEmailTimeZone): what it says, in the few languages the mock knows, with the expiry
// as a person reads it in their time zone. Other locales fall back to English, no zone to UTC.
import type { OutboxMessage } from './outbox.js'

interface Texts {
  subject: string
  body(label: string, qrText: string, expiresAt: string): string
}

const TEXTS: Record<string, Texts> = {
  en: {
    subject: 'Set up sign-in with your phone',
    body: (label, qrText, expiresAt) =>
      `Hello ${label},\n\nScan the attached QR code with the app to add your phone. ` +
      `The code works once, until ${expiresAt}.\n\nIf the app asks for it, the code reads: ${qrText}\n`,
  },
  de: {
    subject: 'Anmeldung mit dem Telefon einrichten',
    body: (label, qrText, expiresAt) =>
      `Hallo ${label},\n\nscannen Sie den angehängten QR-Code mit der App, um Ihr Telefon hinzuzufügen. ` +
      `Der Code gilt einmal, bis ${expiresAt}.\n\nFalls die App danach fragt, lautet der Code: ${qrText}\n`,
  },
  fr: {
    subject: 'Configurer la connexion avec votre téléphone',
    body: (label, qrText, expiresAt) =>
      `Bonjour ${label},\n\nscannez le code QR joint avec l'application pour ajouter votre téléphone. ` +
      `Le code est valable une fois, jusqu'au ${expiresAt}.\n\nSi l'application le demande, le code est : ${qrText}\n`,
  },
}

/** `de-CH` and `de_DE` read as `de`; anything unknown as `en`. */
export function emailLocale(requested: string | undefined): string {
  const language = (requested ?? 'en').split(/[-_]/)[0]!.toLowerCase()
  return Object.hasOwn(TEXTS, language) ? language : 'en'
}

export interface EnrollmentEmail {
  to: string
  requestedLocale: string | undefined
  /** A valid IANA time zone; default UTC. */
  timeZone: string | undefined
  label: string
  identifier: string
  enrollmentId: string
  qrText: string
  /** The spec's timestamp. */
  expiresAt: string
  png: Buffer
}

/** `23 November 2026 at 14:00 (Europe/Berlin)`, in the e-mail's language. */
export function readableExpiry(expiresAt: string, locale: string, timeZone = 'UTC'): string {
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(new Date(expiresAt))
  return `${when} (${timeZone})`
}

export function composeEnrollmentEmail(email: EnrollmentEmail, sentAt: string): Omit<OutboxMessage, 'id'> {
  const locale = emailLocale(email.requestedLocale)
  const texts = TEXTS[locale]!
  return {
    sentAt,
    to: email.to,
    requestedLocale: email.requestedLocale ?? null,
    locale,
    subject: texts.subject,
    text: texts.body(email.label, email.qrText, readableExpiry(email.expiresAt, locale, email.timeZone)),
    enrollmentId: email.enrollmentId,
    identifier: email.identifier,
    attachments: [{ filename: 'enrollment-qr.png', contentType: 'image/png', content: email.png.toString('base64') }],
  }
}
