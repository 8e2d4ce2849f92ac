// German. A language pack: the build makes it service-auth.de.js, a script that adds these texts
// to the page's packs (see addLanguage in i18n.ts); pages load it before the main script.
import type { Texts } from '../i18n.js'

export const texts: Texts = {
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
