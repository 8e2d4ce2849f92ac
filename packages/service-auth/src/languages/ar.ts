// Arabic. A language pack, as de.ts is: the build makes it service-auth.ar.js.
// Written right to left, and its countdown in Arabic-Indic digits (Intl's `arab`): CLDR now
// writes plain `ar` with 0-9, as the Maghreb does, but an Arabic login page of the Mashriq does not.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Arabic'

export const pack: Pack = {
  lang: 'ar',
  dir: 'rtl',
  digits: '٠١٢٣٤٥٦٧٨٩',
  loading: 'جارٍ التحميل…',
  ready: 'امسح الرمز بالتطبيق',
  tap: 'انقر لفتح التطبيق',
  alt: 'رمز QR: سجّل الدخول بالتطبيق',
  left: 'ينتهي خلال ',
  signing: 'جارٍ تسجيل الدخول…',
  signed: 'تم تسجيل الدخول',
  reconnecting: 'جارٍ إعادة الاتصال…',
  expired: 'انتهت صلاحية الرمز',
  error: 'تسجيل الدخول غير متاح',
  failed: 'تعذّر تسجيل الدخول',
  newCode: 'عرض رمز جديد',
  retry: 'إعادة المحاولة',
}
