// Portuguese (Brazil). A language pack, as de.ts is: the build makes it service-auth.pt-BR.js.
// Brazilian Portuguese. A page in plain `pt` gets European Portuguese (pt).
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Portuguese (Brazil)'

export const pack: Pack = {
  lang: 'pt-BR',
  loading: 'Carregando…',
  ready: 'Escaneie com o aplicativo',
  tap: 'Toque para abrir o aplicativo',
  alt: 'Código QR: entre com o aplicativo',
  left: 'Expira em ',
  signing: 'Entrando…',
  // "Login", as Brazilian banks write it.
  signed: 'Login realizado',
  reconnecting: 'Reconectando…',
  expired: 'Código expirado',
  error: 'Login indisponível',
  failed: 'Não foi possível entrar',
  newCode: 'Mostrar outro código',
  retry: 'Tentar novamente',
}
