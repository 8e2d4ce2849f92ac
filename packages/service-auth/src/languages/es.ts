// Spanish. A language pack, as de.ts is: the build makes it service-auth.es.js.
// It addresses the reader as tú, as most sign-in screens in Spanish now do.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Spanish'

export const pack: Pack = {
  lang: 'es',
  loading: 'Cargando…',
  ready: 'Escanea con la aplicación',
  tap: 'Toca para abrir la aplicación',
  alt: 'Código QR: inicia sesión con la aplicación',
  left: 'Caduca en ',
  signing: 'Iniciando sesión…',
  signed: 'Sesión iniciada',
  reconnecting: 'Reconectando…',
  expired: 'Código caducado',
  error: 'Inicio de sesión no disponible',
  failed: 'No se pudo iniciar sesión',
  newCode: 'Mostrar otro código',
  retry: 'Reintentar',
}
