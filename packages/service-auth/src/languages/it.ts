// Italian. A language pack, as de.ts is: the build makes it service-auth.it.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Italian'

export const pack: Pack = {
  lang: 'it',
  loading: 'Caricamento…',
  ready: 'Scansiona con l’app',
  tap: 'Tocca per aprire l’app',
  alt: 'Codice QR: accedi con l’app',
  left: 'Scade tra ',
  signing: 'Accesso in corso…',
  signed: 'Accesso effettuato',
  reconnecting: 'Riconnessione…',
  expired: 'Codice scaduto',
  error: 'Accesso non disponibile',
  failed: 'Accesso non riuscito',
  newCode: 'Nuovo codice',
  retry: 'Riprova',
}
