// French. A language pack, as de.ts is: the build makes it service-auth.fr.js.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'French'

export const pack: Pack = {
  lang: 'fr',
  loading: 'Chargement…',
  ready: 'Scannez avec l’application',
  tap: 'Appuyez pour ouvrir l’application',
  // French sets a space before a colon; a no-break one, so the colon never starts a line.
  alt: 'Code QR\u00a0: connectez-vous avec l’application',
  left: 'Expire dans ',
  signing: 'Connexion…',
  // Not « Connecté(e) »: the words say what happened, not who, so they need no gender.
  signed: 'Connexion réussie',
  reconnecting: 'Reconnexion…',
  expired: 'Code expiré',
  error: 'Connexion indisponible',
  failed: 'Échec de la connexion',
  newCode: 'Nouveau code',
  retry: 'Réessayer',
}
