// Slovak. A language pack, as de.ts is: the build makes it service-auth.sk.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Slovak'

export const pack: Pack = {
  lang: 'sk',
  loading: 'Načítava sa…',
  ready: 'Naskenujte v aplikácii',
  tap: 'Ťuknutím otvorte aplikáciu',
  alt: 'QR kód: prihláste sa v aplikácii',
  left: 'Platnosť vyprší o ',
  signing: 'Prihlasovanie…',
  // Impersonal, as a past tense would need a gender (prihlásený, prihlásená).
  signed: 'Prihlásené',
  reconnecting: 'Obnovuje sa pripojenie…',
  expired: 'Platnosť kódu vypršala',
  error: 'Prihlásenie nie je dostupné',
  failed: 'Prihlásenie zlyhalo',
  newCode: 'Zobraziť nový kód',
  retry: 'Skúsiť znova',
}
