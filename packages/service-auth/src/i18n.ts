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

/** What a pack says of its language besides its texts: all that the widget needs to speak it. */
export interface Language {
  /** Its BCP 47 tag, which the widget's root carries as `lang`: `de`, `pt-PT`, `zh-TW`. */
  lang: string
  /** `rtl` for a language written right to left, which the widget's root carries as `dir`. */
  dir?: 'ltr' | 'rtl'
  /**
   * The ten digits, zero to nine, that its countdown is written in, where they are not 0–9
   * (Arabic: ٠١٢٣٤٥٦٧٨٩). They are Intl's digits for the language (a test holds them to that).
   */
  digits?: string
  /**
   * The other tags, in lower case, that it answers to (`zh-hant`, `no`), besides its own and what
   * dropping subtags from the end finds (`de-at` finds `de`).
   */
  also?: string[]
}

/** A language pack: its language, and every text English has. */
export type Pack = Language & Texts

/** English, built in: the base every pack and the `texts` option are laid over. */
export const english: Pack = { lang: 'en', dir: 'ltr', ...en }

declare global {
  /** The language packs loaded so far, by every tag each answers to, in lower case: each pack script adds itself here. */
  var ServiceAuthTexts: Record<string, Pack> | undefined
  /**
   * The pack a widget on `el` speaks, among those loaded (undefined: English). The pack scripts
   * bring it, so a page without packs, which speaks English whatever it says, carries none of it.
   */
  var ServiceAuthPickLanguage: ((el: Element, locale?: string) => Pack | undefined) | undefined
}
