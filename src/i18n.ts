// Every text a person can see or hear. A language is one object here; integrators can
// still replace any single text with the `texts` mount option. Kept short: they ship in the bundle.
const en = {
  loading: 'Loading…',
  ready: 'Scan with the app',
  alt: 'QR code to sign in',
  left: 'Expires in ',
  signing: 'Signing in…',
  reconnecting: 'Reconnecting…',
  expired: 'The code expired',
  error: 'Sign-in failed',
  newCode: 'Show a new code',
}

export type Texts = typeof en

const de: Texts = {
  loading: 'Lädt…',
  ready: 'Mit der App scannen',
  alt: 'QR-Code zur Anmeldung',
  left: 'Läuft ab in ',
  signing: 'Anmeldung…',
  reconnecting: 'Verbinde neu…',
  expired: 'Code abgelaufen',
  error: 'Anmeldung fehlgeschlagen',
  newCode: 'Neuen Code zeigen',
}

const dictionaries: Record<string, Texts> = { en, de }

/** The first candidate language we have texts for (by its first two letters), else English. */
export const pickLocale = (candidates: readonly unknown[]): string =>
  candidates.map((tag) => (tag + '').slice(0, 2).toLowerCase()).find((lang) => dictionaries[lang]) || 'en'

export const textsFor = dictionaries
