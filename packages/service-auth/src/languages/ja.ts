// Japanese. A language pack, as de.ts is: the build makes it service-auth.ja.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Japanese'

export const pack: Pack = {
  lang: 'ja',
  loading: '読み込み中…',
  ready: 'アプリでスキャンしてください',
  tap: 'タップしてアプリを開く',
  // A full-width colon, as Japanese sets it.
  alt: 'QRコード：アプリでログイン',
  // "Until it expires: 4:59".
  left: '有効期限まで ',
  signing: 'ログイン中…',
  signed: 'ログインしました',
  reconnecting: '再接続中…',
  expired: 'コードの有効期限が切れました',
  error: 'ログインを利用できません',
  failed: 'ログインに失敗しました',
  newCode: '新しいコードを表示',
  retry: '再試行',
}
