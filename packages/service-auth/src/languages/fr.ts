// French. A language pack, as de.ts is: the build makes it service-auth.fr.js.
import type { Texts } from '../i18n.js'

export const texts: Texts = {
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
  newCode: 'Afficher un nouveau code',
  retry: 'Réessayer',
}
