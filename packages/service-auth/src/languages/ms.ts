// Malay. A language pack, as de.ts is: the build makes it service-auth.ms.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Malay'

export const pack: Pack = {
  lang: 'ms',
  loading: 'Memuatkan…',
  ready: 'Imbas dengan aplikasi',
  tap: 'Ketik untuk membuka aplikasi',
  alt: 'Kod QR: log masuk dengan aplikasi',
  left: 'Tamat tempoh dalam ',
  signing: 'Sedang log masuk…',
  signed: 'Berjaya log masuk',
  reconnecting: 'Menyambung semula…',
  expired: 'Kod telah tamat tempoh',
  error: 'Log masuk tidak tersedia',
  failed: 'Log masuk gagal',
  newCode: 'Papar kod baharu',
  retry: 'Cuba lagi',
}
