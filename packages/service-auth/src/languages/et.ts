// Estonian. A language pack, as de.ts is: the build makes it service-auth.et.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Estonian'

export const pack: Pack = {
  lang: 'et',
  loading: 'Laadimine…',
  ready: 'Skanni rakendusega',
  tap: 'Puuduta rakenduse avamiseks',
  alt: 'QR-kood: logi sisse rakendusega',
  // "Still valid for 4:59": Estonian would put "in" after the time (4:59 pärast), and the clock comes last.
  left: 'Kehtib veel ',
  signing: 'Sisselogimine…',
  signed: 'Sisse logitud',
  reconnecting: 'Ühenduse taastamine…',
  expired: 'Kood on aegunud',
  error: 'Sisselogimine pole saadaval',
  failed: 'Sisselogimine ebaõnnestus',
  newCode: 'Näita uut koodi',
  retry: 'Proovi uuesti',
}
