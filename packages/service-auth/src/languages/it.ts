// Italian. A language pack, as de.ts is: the build makes it service-auth.it.js.
import type { Texts } from '../i18n.js'

export const texts: Texts = {
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
  newCode: 'Mostra un nuovo codice',
  retry: 'Riprova',
}
