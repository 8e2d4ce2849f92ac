// Greek. A language pack, as de.ts is: the build makes it service-auth.el.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Greek'

export const pack: Pack = {
  lang: 'el',
  loading: 'Φόρτωση…',
  // The polite plural throughout, as Greek banks address their customers.
  ready: 'Σαρώστε με την εφαρμογή',
  tap: 'Πατήστε για να ανοίξει η εφαρμογή',
  alt: 'Κωδικός QR: συνδεθείτε με την εφαρμογή',
  left: 'Λήγει σε ',
  signing: 'Σύνδεση…',
  signed: 'Συνδεθήκατε',
  reconnecting: 'Επανασύνδεση…',
  expired: 'Ο κωδικός έληξε',
  error: 'Η σύνδεση δεν είναι διαθέσιμη',
  failed: 'Η σύνδεση απέτυχε',
  newCode: 'Νέος κωδικός',
  retry: 'Δοκιμάστε ξανά',
}
