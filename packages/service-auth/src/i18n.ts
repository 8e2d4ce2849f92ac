// Every text a person can see or hear, in English, which is built in. Other languages are packs
// (src/languages/), each its own small script, so that a language costs the main script nothing;
// integrators can still replace any single text with the `texts` mount option.
export const en = {
  loading: 'Loading…',
  ready: 'Scan with the app',
  // Said instead on touch devices, where the code is a link to the app: a phone cannot scan its own screen.
  tap: 'Tap to open the app',
  // Also the name of the link that opens the app on touch devices, so it says what both do.
  alt: 'QR code: sign in with the app',
  left: 'Expires in ',
  signing: 'Signing in…',
  // When the page's own script took over after sign-in (it cancelled service-auth:success).
  signed: 'Signed in',
  reconnecting: 'Reconnecting…',
  expired: 'Code expired',
  // The error state: the service refused this page, or the markup is wrong. Trying again may help.
  error: 'Sign-in is unavailable',
  // Said beside the next code when the site's controller refused the last sign-in.
  failed: 'Sign-in failed',
  newCode: 'Show a new code',
  retry: 'Try again',
}

export type Texts = typeof en

declare global {
  /** The language packs loaded so far, by two-letter code: each pack script adds itself here. */
  var ServiceAuthTexts: Record<string, Texts> | undefined
}

/**
 * All that a language pack's script (service-auth.<code>.js) does: adds its texts to the page's
 * packs. The build writes that script's entry (see build.mjs).
 */
export const addLanguage = (code: string, texts: Texts): void => {
  // globalThis, not self: a server render imports the pack too (`import 'service-auth/languages/de.js'`
  // in a page's module), and Node has no self. In a browser both name the window that languages() reads.
  ;(globalThis.ServiceAuthTexts ||= {})[code] = texts
}

/** The texts of each language this page has, by two-letter code: English, and the packs loaded so far (a widget asks as it builds its view). */
export const languages = (): Record<string, Texts> => ({ en, ...self.ServiceAuthTexts })

/** The first candidate language in `available` (by its first two letters), else English. */
export const pickLocale = (candidates: readonly unknown[], available: Record<string, Texts>): string =>
  candidates.map((tag) => String(tag).slice(0, 2).toLowerCase()).find((lang) => available[lang]) || 'en'
