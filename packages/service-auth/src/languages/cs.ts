// Czech. A language pack, as de.ts is: the build makes it service-auth.cs.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Czech'

export const pack: Pack = {
  lang: 'cs',
  loading: 'Načítání…',
  ready: 'Naskenujte v aplikaci',
  tap: 'Klepnutím otevřete aplikaci',
  alt: 'QR kód: přihlaste se v aplikaci',
  left: 'Platnost vyprší za ',
  signing: 'Přihlašování…',
  // Impersonal, as a past tense would need a gender (přihlášen, přihlášena).
  signed: 'Přihlášeno',
  reconnecting: 'Obnovování připojení…',
  expired: 'Platnost kódu vypršela',
  error: 'Přihlášení není dostupné',
  failed: 'Přihlášení se nezdařilo',
  newCode: 'Zobrazit nový kód',
  retry: 'Zkusit znovu',
}
