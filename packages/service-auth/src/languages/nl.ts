// Dutch. A language pack, as de.ts is: the build makes it service-auth.nl.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Dutch'

export const pack: Pack = {
  lang: 'nl',
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
