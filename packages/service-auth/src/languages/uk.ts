// Ukrainian. A language pack, as de.ts is: the build makes it service-auth.uk.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Ukrainian'

export const pack: Pack = {
  lang: 'uk',
  loading: 'Завантаження…',
  // "Застосунок", the word Ukrainian style guides prefer to "додаток" for an app.
  ready: 'Відскануйте в застосунку',
  tap: 'Торкніться, щоб відкрити застосунок',
  alt: 'QR-код: увійдіть через застосунок',
  // "Still valid for 4:59".
  left: 'Діє ще ',
  signing: 'Вхід…',
  signed: 'Вхід виконано',
  reconnecting: 'Повторне підключення…',
  expired: 'Термін дії коду минув',
  error: 'Вхід недоступний',
  failed: 'Не вдалося увійти',
  newCode: 'Новий код',
  retry: 'Спробувати ще раз',
}
