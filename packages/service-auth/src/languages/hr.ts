// Croatian. A language pack, as de.ts is: the build makes it service-auth.hr.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Croatian'

export const pack: Pack = {
  lang: 'hr',
  loading: 'Učitavanje…',
  ready: 'Skenirajte aplikacijom',
  tap: 'Dodirnite za otvaranje aplikacije',
  alt: 'QR kôd: prijavite se aplikacijom',
  left: 'Istječe za ',
  signing: 'Prijava…',
  // "Sign-in succeeded": a past participle (prijavljen, prijavljena) would need a gender.
  signed: 'Prijava uspješna',
  reconnecting: 'Ponovno povezivanje…',
  expired: 'Kôd je istekao',
  error: 'Prijava nije dostupna',
  failed: 'Prijava nije uspjela',
  newCode: 'Prikaži novi kôd',
  retry: 'Pokušajte ponovno',
}
