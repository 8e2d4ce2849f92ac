// Every text a person can see or hear. A language is one object here; integrators can
// still replace any single text with the `texts` mount option. Kept short: they ship in the bundle.
const en = {
  loading: 'Loading…',
  ready: 'Scan with the app',
  alt: 'Sign-in QR code',
  left: 'Expires in ',
  signing: 'Signing in…',
  done: 'Signed in',
  reconnecting: 'Reconnecting…',
  expired: 'Code expired',
  error: 'Sign-in unavailable',
  failed: 'Failed. Scan the new code.',
  newCode: 'New code',
  retry: 'Try again',
}

export type Texts = typeof en

const de: Texts = {
  loading: 'Lädt…',
  ready: 'Mit der App scannen',
  alt: 'QR-Code zur Anmeldung',
  left: 'Läuft ab in ',
  signing: 'Anmeldung…',
  done: 'Angemeldet',
  reconnecting: 'Verbinde neu…',
  expired: 'Code abgelaufen',
  error: 'Nicht verfügbar',
  failed: 'Fehlgeschlagen. Neuen Code scannen.',
  newCode: 'Neuer Code',
  retry: 'Erneut versuchen',
}

const dictionaries: Record<string, Texts> = { en, de }

/** The first candidate language we have texts for (by its first two letters), else English. */
export const pickLocale = (candidates: readonly unknown[]): string =>
  candidates.map((tag) => (tag + '').slice(0, 2).toLowerCase()).find((lang) => dictionaries[lang]) || 'en'

export const textsFor = (lang: string): Texts => dictionaries[lang]
