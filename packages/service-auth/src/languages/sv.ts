// Swedish. A language pack, as de.ts is: the build makes it service-auth.sv.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Swedish'

export const pack: Pack = {
  lang: 'sv',
  loading: 'Läser in…',
  ready: 'Skanna med appen',
  tap: 'Tryck för att öppna appen',
  alt: 'QR-kod: logga in med appen',
  left: 'Går ut om ',
  signing: 'Loggar in…',
  signed: 'Inloggad',
  reconnecting: 'Återansluter…',
  expired: 'Koden har gått ut',
  error: 'Inloggning är inte tillgänglig',
  failed: 'Inloggningen misslyckades',
  newCode: 'Visa en ny kod',
  retry: 'Försök igen',
}
