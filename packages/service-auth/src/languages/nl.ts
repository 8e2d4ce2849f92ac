// Dutch. A language pack, as de.ts is: the build makes it service-auth.nl.js.
import type { Texts } from '../i18n.js'

export const texts: Texts = {
  loading: 'Laden…',
  ready: 'Scan met de app',
  tap: 'Tik om de app te openen',
  alt: 'QR-code: log in met de app',
  left: 'Verloopt over ',
  signing: 'Inloggen…',
  signed: 'Ingelogd',
  reconnecting: 'Opnieuw verbinden…',
  expired: 'Code verlopen',
  error: 'Inloggen is niet beschikbaar',
  failed: 'Inloggen mislukt',
  newCode: 'Nieuwe code tonen',
  retry: 'Opnieuw proberen',
}
