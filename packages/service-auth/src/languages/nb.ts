// Norwegian Bokmål. A language pack, as de.ts is: the build makes it service-auth.nb.js.
// Also what a page in `no` (Norwegian) gets, and one in `nn` (Nynorsk), which has no pack of its
// own: every Norwegian reads Bokmål, and it is nearer than English.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Norwegian Bokmål'

export const pack: Pack = {
  lang: 'nb',
  also: ['no', 'nn'],
  loading: 'Laster inn…',
  ready: 'Skann med appen',
  tap: 'Trykk for å åpne appen',
  alt: 'QR-kode: logg inn med appen',
  left: 'Utløper om ',
  signing: 'Logger inn…',
  signed: 'Du er logget inn',
  reconnecting: 'Kobler til på nytt…',
  expired: 'Koden er utløpt',
  error: 'Innlogging er ikke tilgjengelig',
  failed: 'Innloggingen mislyktes',
  newCode: 'Vis en ny kode',
  retry: 'Prøv igjen',
}
