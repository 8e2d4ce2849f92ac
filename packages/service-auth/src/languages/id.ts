// Indonesian. A language pack, as de.ts is: the build makes it service-auth.id.js.
// `in` is its tag before 1989, which old systems still send.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Indonesian'

export const pack: Pack = {
  lang: 'id',
  also: ['in'],
  loading: 'Memuat…',
  ready: 'Pindai dengan aplikasi',
  tap: 'Ketuk untuk membuka aplikasi',
  alt: 'Kode QR: masuk dengan aplikasi',
  left: 'Kedaluwarsa dalam ',
  signing: 'Sedang masuk…',
  signed: 'Berhasil masuk',
  reconnecting: 'Menyambungkan ulang…',
  expired: 'Kode kedaluwarsa',
  error: 'Layanan masuk tidak tersedia',
  failed: 'Gagal masuk',
  newCode: 'Tampilkan kode baru',
  retry: 'Coba lagi',
}
