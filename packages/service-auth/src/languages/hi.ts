// Hindi. A language pack, as de.ts is: the build makes it service-auth.hi.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Hindi'

export const pack: Pack = {
  lang: 'hi',
  loading: 'लोड हो रहा है…',
  ready: 'ऐप से स्कैन करें',
  tap: 'ऐप खोलने के लिए टैप करें',
  alt: 'QR कोड: ऐप से साइन इन करें',
  // "Time left: 4:59". Hindi writes its numbers in 0-9 here, as Intl does.
  left: 'समय शेष: ',
  signing: 'साइन इन हो रहा है…',
  signed: 'साइन इन हो गया',
  reconnecting: 'फिर से कनेक्ट हो रहा है…',
  expired: 'कोड की समय-सीमा समाप्त हो गई',
  error: 'साइन इन उपलब्ध नहीं है',
  failed: 'साइन इन नहीं हो सका',
  newCode: 'नया कोड दिखाएं',
  retry: 'फिर से कोशिश करें',
}
