// Tagalog (Filipino). A language pack, as de.ts is: the build makes it service-auth.tl.js.
// Also what a page in `fil` (Filipino, Tagalog's standard form) gets. Filipino banks write
// "sign in", "app" and "code" in English within Tagalog, as these texts do.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Tagalog (Filipino)'

export const pack: Pack = {
  lang: 'tl',
  also: ['fil'],
  loading: 'Naglo-load…',
  ready: 'I-scan gamit ang app',
  tap: 'I-tap para buksan ang app',
  alt: 'QR code: mag-sign in gamit ang app',
  left: 'Mag-e-expire sa ',
  signing: 'Nagsa-sign in…',
  signed: 'Naka-sign in na',
  reconnecting: 'Muling kumokonekta…',
  expired: 'Nag-expire na ang code',
  error: 'Hindi available ang pag-sign in',
  failed: 'Hindi nakapag-sign in',
  newCode: 'Bagong code',
  retry: 'Subukang muli',
}
