// Thai. A language pack, as de.ts is: the build makes it service-auth.th.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Thai'

export const pack: Pack = {
  lang: 'th',
  loading: 'กำลังโหลด…',
  ready: 'สแกนด้วยแอป',
  tap: 'แตะเพื่อเปิดแอป',
  // Thai writes "QR code" out in its own script, as Thai banks do.
  alt: 'คิวอาร์โค้ด: เข้าสู่ระบบด้วยแอป',
  left: 'หมดอายุใน ',
  signing: 'กำลังเข้าสู่ระบบ…',
  signed: 'เข้าสู่ระบบแล้ว',
  reconnecting: 'กำลังเชื่อมต่อใหม่…',
  expired: 'รหัสหมดอายุแล้ว',
  error: 'ไม่สามารถเข้าสู่ระบบได้ในขณะนี้',
  failed: 'เข้าสู่ระบบไม่สำเร็จ',
  newCode: 'แสดงรหัสใหม่',
  retry: 'ลองอีกครั้ง',
}
