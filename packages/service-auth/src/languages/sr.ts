// Serbian (Cyrillic). A language pack, as de.ts is: the build makes it service-auth.sr.js.
// In Cyrillic, the script CLDR takes for plain `sr`; a page in `sr-Latn` gets it too, which
// every Serbian reads.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Serbian (Cyrillic)'

export const pack: Pack = {
  lang: 'sr',
  loading: 'Учитавање…',
  ready: 'Скенирајте апликацијом',
  tap: 'Додирните да отворите апликацију',
  alt: 'QR код: пријавите се апликацијом',
  left: 'Истиче за ',
  signing: 'Пријављивање…',
  signed: 'Пријава је успела',
  reconnecting: 'Поновно повезивање…',
  expired: 'Код је истекао',
  error: 'Пријава није доступна',
  failed: 'Пријава није успела',
  newCode: 'Прикажи нови код',
  retry: 'Покушајте поново',
}
