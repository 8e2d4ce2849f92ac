// German. A language pack: the build makes it service-auth.de.js, a script that adds it to the
// page's packs (see addLanguage in i18n.ts); pages load it before the main script. Beside its
// texts, a pack says what the widget needs of its language (see Language in i18n.ts): its tag,
// and where it applies, its direction, its digits and the other tags it answers to.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'German'

export const pack: Pack = {
  lang: 'de',
  loading: 'Lädt…',
  ready: 'Mit der App scannen',
  tap: 'Tippen, um die App zu öffnen',
  alt: 'QR-Code: mit der App anmelden',
  left: 'Läuft ab in ',
  signing: 'Anmeldung…',
  signed: 'Angemeldet',
  reconnecting: 'Verbinde neu…',
  expired: 'Code abgelaufen',
  error: 'Anmeldung nicht verfügbar',
  failed: 'Anmeldung fehlgeschlagen',
  newCode: 'Neuen Code zeigen',
  retry: 'Erneut versuchen',
}
