// Russian. A language pack, as de.ts is: the build makes it service-auth.ru.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Russian'

export const pack: Pack = {
  lang: 'ru',
  loading: 'Загрузка…',
  ready: 'Отсканируйте в приложении',
  tap: 'Нажмите, чтобы открыть приложение',
  alt: 'QR-код: войдите через приложение',
  left: 'Истекает через ',
  signing: 'Выполняется вход…',
  // "Sign-in done": a past tense (вошли, вошёл) would need a number or a gender.
  signed: 'Вход выполнен',
  reconnecting: 'Повторное подключение…',
  expired: 'Срок действия кода истёк',
  error: 'Вход недоступен',
  failed: 'Не удалось войти',
  newCode: 'Новый код',
  retry: 'Повторить попытку',
}
