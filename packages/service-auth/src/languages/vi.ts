// Vietnamese. A language pack, as de.ts is: the build makes it service-auth.vi.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Vietnamese'

export const pack: Pack = {
  lang: 'vi',
  loading: 'Đang tải…',
  ready: 'Quét bằng ứng dụng',
  tap: 'Nhấn để mở ứng dụng',
  alt: 'Mã QR: đăng nhập bằng ứng dụng',
  left: 'Hết hạn sau ',
  signing: 'Đang đăng nhập…',
  signed: 'Đã đăng nhập',
  reconnecting: 'Đang kết nối lại…',
  expired: 'Mã đã hết hạn',
  error: 'Không thể đăng nhập lúc này',
  failed: 'Đăng nhập không thành công',
  newCode: 'Hiển thị mã mới',
  retry: 'Thử lại',
}
