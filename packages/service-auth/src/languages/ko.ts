// Korean. A language pack, as de.ts is: the build makes it service-auth.ko.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Korean'

export const pack: Pack = {
  lang: 'ko',
  loading: '불러오는 중…',
  ready: '앱으로 스캔하세요',
  tap: '탭하여 앱 열기',
  alt: 'QR 코드: 앱으로 로그인',
  // "Time left 4:59".
  left: '남은 시간 ',
  signing: '로그인 중…',
  signed: '로그인되었습니다',
  reconnecting: '다시 연결하는 중…',
  expired: '코드가 만료되었습니다',
  error: '로그인을 사용할 수 없습니다',
  failed: '로그인에 실패했습니다',
  newCode: '새 코드 표시',
  retry: '다시 시도',
}
