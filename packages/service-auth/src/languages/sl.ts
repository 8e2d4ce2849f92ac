// Slovenian. A language pack, as de.ts is: the build makes it service-auth.sl.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Slovenian'

export const pack: Pack = {
  lang: 'sl',
  loading: 'Nalaganje…',
  ready: 'Skenirajte z aplikacijo',
  tap: 'Tapnite, da odprete aplikacijo',
  alt: 'Koda QR: prijavite se z aplikacijo',
  left: 'Poteče čez ',
  signing: 'Prijavljanje…',
  // "Sign-in succeeded": a participle (prijavljen, prijavljena) would need a gender.
  signed: 'Prijava uspešna',
  reconnecting: 'Vnovično povezovanje…',
  expired: 'Koda je potekla',
  error: 'Prijava ni na voljo',
  failed: 'Prijava ni uspela',
  newCode: 'Prikaži novo kodo',
  retry: 'Poskusite znova',
}
