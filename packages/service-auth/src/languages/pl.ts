// Polish. A language pack, as de.ts is: the build makes it service-auth.pl.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Polish'

export const pack: Pack = {
  lang: 'pl',
  loading: 'Ładowanie…',
  ready: 'Zeskanuj w aplikacji',
  tap: 'Dotknij, aby otworzyć aplikację',
  alt: 'Kod QR: zaloguj się przez aplikację',
  left: 'Wygasa za ',
  signing: 'Logowanie…',
  // Impersonal, as a past-tense verb would otherwise need a gender (zalogowany, zalogowana).
  signed: 'Zalogowano',
  reconnecting: 'Ponowne łączenie…',
  expired: 'Kod wygasł',
  error: 'Logowanie jest niedostępne',
  failed: 'Logowanie nie powiodło się',
  newCode: 'Pokaż nowy kod',
  retry: 'Spróbuj ponownie',
}
