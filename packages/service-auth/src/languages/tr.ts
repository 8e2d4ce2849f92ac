// Turkish. A language pack, as de.ts is: the build makes it service-auth.tr.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Turkish'

export const pack: Pack = {
  lang: 'tr',
  loading: 'Yükleniyor…',
  ready: 'Uygulamayla tarayın',
  tap: 'Uygulamayı açmak için dokunun',
  alt: 'QR kod: uygulamayla giriş yapın',
  // "Time left: 4:59": Turkish would put "in" after the time (4:59 içinde), and the clock comes last.
  left: 'Kalan süre: ',
  signing: 'Giriş yapılıyor…',
  signed: 'Giriş yapıldı',
  reconnecting: 'Yeniden bağlanılıyor…',
  expired: 'Kodun süresi doldu',
  error: 'Giriş kullanılamıyor',
  failed: 'Giriş başarısız oldu',
  newCode: 'Yeni kod göster',
  retry: 'Tekrar deneyin',
}
