// Lithuanian. A language pack, as de.ts is: the build makes it service-auth.lt.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Lithuanian'

export const pack: Pack = {
  lang: 'lt',
  loading: 'Įkeliama…',
  ready: 'Nuskaitykite programėle',
  tap: 'Atidarykite programėlę',
  alt: 'QR kodas: prisijunkite programėle',
  // "Still valid for 4:59".
  left: 'Galioja dar ',
  signing: 'Jungiamasi…',
  // Impersonal, as a participle would need a gender (prisijungęs, prisijungusi).
  signed: 'Prisijungta',
  reconnecting: 'Jungiamasi iš naujo…',
  expired: 'Kodo galiojimas baigėsi',
  error: 'Prisijungimas negalimas',
  failed: 'Nepavyko prisijungti',
  newCode: 'Rodyti naują kodą',
  retry: 'Bandykite dar kartą',
}
