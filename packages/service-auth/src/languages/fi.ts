// Finnish. A language pack, as de.ts is: the build makes it service-auth.fi.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Finnish'

export const pack: Pack = {
  lang: 'fi',
  loading: 'Ladataan…',
  ready: 'Skannaa sovelluksella',
  tap: 'Avaa sovellus napauttamalla',
  alt: 'QR-koodi: kirjaudu sisään sovelluksella',
  // "Still valid for 4:59": Finnish would put "in" after the time (4:59 kuluttua), and the clock comes last.
  left: 'Voimassa vielä ',
  signing: 'Kirjaudutaan…',
  signed: 'Olet kirjautunut sisään',
  reconnecting: 'Yhdistetään uudelleen…',
  expired: 'Koodi vanhentui',
  error: 'Kirjautuminen ei ole käytettävissä',
  failed: 'Kirjautuminen epäonnistui',
  newCode: 'Näytä uusi koodi',
  retry: 'Yritä uudelleen',
}
