// Latvian. A language pack, as de.ts is: the build makes it service-auth.lv.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Latvian'

export const pack: Pack = {
  lang: 'lv',
  loading: 'Ielādē…',
  ready: 'Noskenējiet ar lietotni',
  tap: 'Pieskarieties, lai atvērtu lietotni',
  alt: 'QR kods: pieslēdzieties ar lietotni',
  // "Still valid for 4:59".
  left: 'Derīgs vēl ',
  signing: 'Notiek pieslēgšanās…',
  signed: 'Pieslēgšanās veiksmīga',
  reconnecting: 'Atjauno savienojumu…',
  expired: 'Koda derīgums beidzies',
  error: 'Pieslēgšanās nav pieejama',
  failed: 'Pieslēgšanās neizdevās',
  newCode: 'Rādīt jaunu kodu',
  retry: 'Mēģiniet vēlreiz',
}
