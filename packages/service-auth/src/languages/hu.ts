// Hungarian. A language pack, as de.ts is: the build makes it service-auth.hu.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Hungarian'

export const pack: Pack = {
  lang: 'hu',
  loading: 'Betöltés…',
  // The polite form (Ön) throughout, as Hungarian banks address their customers.
  ready: 'Olvassa be az alkalmazással',
  tap: 'Nyissa meg az alkalmazást',
  alt: 'QR-kód: jelentkezzen be az alkalmazással',
  // "Time left: 4:59": Hungarian would put "in" after the time (4:59 múlva), and the clock comes last.
  left: 'Hátralévő idő: ',
  signing: 'Bejelentkezés…',
  signed: 'Sikeres bejelentkezés',
  reconnecting: 'Újracsatlakozás…',
  expired: 'A kód lejárt',
  error: 'A bejelentkezés nem érhető el',
  failed: 'Sikertelen bejelentkezés',
  newCode: 'Új kód megjelenítése',
  retry: 'Próbálja újra',
}
