// Hebrew. A language pack, as de.ts is: the build makes it service-auth.he.js.
// Written right to left. `iw` is its tag before 1989, which old systems still send.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Hebrew'

export const pack: Pack = {
  lang: 'he',
  dir: 'rtl',
  also: ['iw'],
  loading: 'בטעינה…',
  // The plural imperative, which addresses anyone: the singular would need a gender.
  ready: 'סרקו באמצעות האפליקציה',
  tap: 'הקישו כדי לפתוח את האפליקציה',
  alt: 'קוד QR: התחברו באמצעות האפליקציה',
  // "Still valid for 4:59".
  left: 'בתוקף עוד ',
  signing: 'מתבצעת התחברות…',
  signed: 'ההתחברות הצליחה',
  // Impersonal, as a present tense would need a gender (מתחבר, מתחברת).
  reconnecting: 'מתבצע חיבור מחדש…',
  expired: 'תוקף הקוד פג',
  error: 'ההתחברות אינה זמינה',
  failed: 'ההתחברות נכשלה',
  newCode: 'הצגת קוד חדש',
  retry: 'ניסיון נוסף',
}
