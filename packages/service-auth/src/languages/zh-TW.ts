// Chinese (Traditional). A language pack, as de.ts is: the build makes it service-auth.zh-TW.js.
// Traditional Chinese, as Taiwan writes it: also what a page in `zh-Hant`, or Hong Kong's or
// Macao's Chinese, gets.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Chinese (Traditional)'

export const pack: Pack = {
  lang: 'zh-TW',
  also: ['zh-hant', 'zh-hk', 'zh-mo'],
  loading: '載入中…',
  ready: '請使用應用程式掃描',
  tap: '輕觸以開啟應用程式',
  alt: 'QR 碼：使用應用程式登入',
  left: '有效時間剩餘 ',
  signing: '登入中…',
  signed: '已登入',
  reconnecting: '重新連線中…',
  expired: 'QR 碼已過期',
  error: '目前無法登入',
  failed: '登入失敗',
  newCode: '顯示新的 QR 碼',
  retry: '再試一次',
}
