// Bulgarian. A language pack, as de.ts is: the build makes it service-auth.bg.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Bulgarian'

export const pack: Pack = {
  lang: 'bg',
  loading: 'Зареждане…',
  ready: 'Сканирайте с приложението',
  tap: 'Отворете приложението',
  alt: 'QR код: влезте с приложението',
  left: 'Изтича след ',
  signing: 'Влизане…',
  // What happened, not who: a past participle would need a gender.
  signed: 'Влизането е успешно',
  reconnecting: 'Повторно свързване…',
  expired: 'Кодът е изтекъл',
  error: 'Влизането е недостъпно',
  failed: 'Неуспешно влизане',
  newCode: 'Покажете нов код',
  retry: 'Опитайте отново',
}
