// Every text a person can see or hear. A language is one object here; integrators can
// still replace any single text with the `texts` mount option. Kept short: they ship in the bundle.
const en = {
  loading: 'Loading…',
  ready: 'Scan with the app',
  // Also the name of the link that opens the app on touch devices, so it says what both do.
  alt: 'QR code: sign in with the app',
  left: 'Expires in ',
  signing: 'Signing in…',
  reconnecting: 'Reconnecting…',
  expired: 'The code expired',
  // The error state: the service refused this page, or the markup is wrong. Trying again may help.
  error: 'Sign-in is unavailable',
  // Said beside the next code when the site's controller refused the last sign-in.
  failed: 'Sign-in failed',
  newCode: 'Show a new code',
  retry: 'Try again',
}

export type Texts = typeof en

const de: Texts = {
  loading: 'Lädt…',
  ready: 'Mit der App scannen',
  alt: 'QR-Code: mit der App anmelden',
  left: 'Läuft ab in ',
  signing: 'Anmeldung…',
  reconnecting: 'Verbinde neu…',
  expired: 'Code abgelaufen',
  error: 'Anmeldung nicht verfügbar',
  failed: 'Anmeldung fehlgeschlagen',
  newCode: 'Neuen Code zeigen',
  retry: 'Erneut versuchen',
}

/** The texts of each language we have, by its two-letter code. */
export const textsFor: Record<string, Texts> = { en, de }

/** The first candidate language we have texts for (by its first two letters), else English. */
export const pickLocale = (candidates: readonly unknown[]): string =>
  candidates.map((tag) => (tag + '').slice(0, 2).toLowerCase()).find((lang) => textsFor[lang]) || 'en'
