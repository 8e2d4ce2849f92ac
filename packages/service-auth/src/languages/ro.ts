// Romanian. A language pack, as de.ts is: the build makes it service-auth.ro.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Romanian'

export const pack: Pack = {
  lang: 'ro',
  loading: 'Se încarcă…',
  ready: 'Scanați cu aplicația',
  tap: 'Atingeți pentru a deschide aplicația',
  // With the comma below (ș, ț), not the cedilla (ş, ţ) that old fonts substituted.
  alt: 'Cod QR: autentificați-vă cu aplicația',
  left: 'Expiră în ',
  signing: 'Se face autentificarea…',
  signed: 'Autentificare reușită',
  reconnecting: 'Se reconectează…',
  expired: 'Codul a expirat',
  error: 'Autentificarea nu este disponibilă',
  failed: 'Autentificarea a eșuat',
  newCode: 'Afișați un cod nou',
  retry: 'Încercați din nou',
}
