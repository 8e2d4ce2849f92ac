// Maltese. A language pack, as de.ts is: the build makes it service-auth.mt.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Maltese'

export const pack: Pack = {
  lang: 'mt',
  loading: 'Qed jitgħabba…',
  ready: 'Skennja bl-app',
  tap: 'Agħfas biex tiftaħ l-app',
  alt: 'Kodiċi QR: idħol bl-app',
  left: 'Jiskadi fi żmien ',
  signing: 'Qed tidħol…',
  signed: 'Dħalt b’suċċess',
  reconnecting: 'Qed jerġa’ jikkonnettja…',
  expired: 'Il-kodiċi skada',
  error: 'Id-dħul mhux disponibbli',
  failed: 'Id-dħul ma rnexxiex',
  newCode: 'Uri kodiċi ġdid',
  retry: 'Erġa’ pprova',
}
