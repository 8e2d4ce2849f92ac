// Portuguese (Portugal). A language pack, as de.ts is: the build makes it service-auth.pt.js.
// European Portuguese, the EU's: what a page in plain `pt` gets, and Angola's and Mozambique's
// (`pt-AO` finds `pt`). Brazil has its own pack, pt-BR.
import type { Pack } from '../i18n.js'

/** Its name in English, for the README's table of packs. */
export const name = 'Portuguese (Portugal)'

export const pack: Pack = {
  lang: 'pt-PT',
  also: ['pt'],
  loading: 'A carregar…',
  ready: 'Leia com a aplicação',
  tap: 'Toque para abrir a aplicação',
  alt: 'Código QR: inicie sessão com a aplicação',
  left: 'Expira em ',
  signing: 'A iniciar sessão…',
  signed: 'Sessão iniciada',
  reconnecting: 'A restabelecer a ligação…',
  expired: 'Código expirado',
  error: 'Início de sessão indisponível',
  failed: 'Não foi possível iniciar sessão',
  newCode: 'Mostrar outro código',
  retry: 'Tentar novamente',
}
