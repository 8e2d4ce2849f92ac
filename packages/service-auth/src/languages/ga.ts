// Irish. A language pack, as de.ts is: the build makes it service-auth.ga.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Irish'

export const pack: Pack = {
  lang: 'ga',
  loading: 'Á lódáil…',
  ready: 'Scanáil leis an aip',
  tap: 'Tapáil chun an aip a oscailt',
  alt: 'Cód QR: sínigh isteach leis an aip',
  // "Valid for 4:59".
  left: 'Bailí ar feadh ',
  signing: 'Ag síniú isteach…',
  signed: 'Sínithe isteach',
  reconnecting: 'Ag athcheangal…',
  expired: 'Tá an cód as feidhm',
  error: 'Níl síniú isteach ar fáil',
  failed: 'Theip ar shíniú isteach',
  newCode: 'Taispeáin cód nua',
  retry: 'Bain triail eile as',
}
