// Danish. A language pack, as de.ts is: the build makes it service-auth.da.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Danish'

export const pack: Pack = {
  lang: 'da',
  loading: 'Indlæser…',
  ready: 'Scan med appen',
  tap: 'Tryk for at åbne appen',
  alt: 'QR-kode: log ind med appen',
  left: 'Udløber om ',
  signing: 'Logger ind…',
  signed: 'Du er logget ind',
  reconnecting: 'Genopretter forbindelse…',
  expired: 'Koden er udløbet',
  error: 'Login er ikke tilgængeligt',
  failed: 'Login mislykkedes',
  newCode: 'Vis en ny kode',
  retry: 'Prøv igen',
}
