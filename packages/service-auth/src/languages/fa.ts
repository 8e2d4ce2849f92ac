// Persian. A language pack, as de.ts is: the build makes it service-auth.fa.js.
// Written right to left, and its countdown in Persian digits (Intl's `arabext`).
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Persian'

export const pack: Pack = {
  lang: 'fa',
  dir: 'rtl',
  digits: '۰۱۲۳۴۵۶۷۸۹',
  loading: 'در حال بارگذاری…',
  ready: 'با برنامه اسکن کنید',
  tap: 'برای باز کردن برنامه ضربه بزنید',
  alt: 'کد QR: با برنامه وارد شوید',
  // "Time left: 4:59", with a zero-width non-joiner in باقی‌مانده, as Persian spells it.
  left: 'زمان باقی\u200cمانده: ',
  signing: 'در حال ورود…',
  signed: 'وارد شدید',
  reconnecting: 'در حال اتصال دوباره…',
  expired: 'کد منقضی شد',
  error: 'ورود در دسترس نیست',
  failed: 'ورود ناموفق بود',
  newCode: 'نمایش کد جدید',
  retry: 'تلاش دوباره',
}
