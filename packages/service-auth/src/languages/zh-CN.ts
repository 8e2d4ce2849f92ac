// Chinese (Simplified). A language pack, as de.ts is: the build makes it service-auth.zh-CN.js.
// Simplified Chinese: what a page in plain `zh`, `zh-Hans` or Singapore's and Malaysia's
// Chinese gets. Traditional Chinese has its own pack, zh-TW.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Chinese (Simplified)'

export const pack: Pack = {
  lang: 'zh-CN',
  also: ['zh', 'zh-hans', 'zh-sg', 'zh-my'],
  loading: '正在加载…',
  ready: '请使用应用扫码',
  tap: '轻触以打开应用',
  alt: '二维码：使用应用登录',
  left: '有效期剩余 ',
  signing: '正在登录…',
  signed: '已登录',
  reconnecting: '正在重新连接…',
  expired: '二维码已过期',
  error: '暂时无法登录',
  failed: '登录失败',
  newCode: '显示新的二维码',
  retry: '重试',
}
