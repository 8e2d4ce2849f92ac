// GET /auth/controller: the integrator's controller (spec section 4, "Client application
// controller"). The embed hands it the signed token; it verifies the token with the API
// secret, starts a session and says where the browser goes next. The `mode` query parameter
// picks one of the answers controllers in the wild give, so tests can cover each of them.
import type { IncomingHttpHeaders } from 'node:http'
import { jwtVerify } from 'jose'
import { fieldProblem, HttpProblem } from '../common/problem.ts'
import { redirect, sendBytes, sendJson } from '../common/respond.ts'
import type { AppHandler } from './context.ts'
import type { ControllerClaims } from './controller-log.ts'

const MODES = ['redirect', 'plain', 'deny', 'location'] as const
type Mode = (typeof MODES)[number]

const WELCOME = '/welcome'

export const authController: AppHandler = async (context, { req, res, url }) => {
  const token = tokenFrom(req.headers)
  const claims = token === undefined ? null : await verify(token, context.secret)
  // Logged before anything can refuse the request: tests assert on refused requests too.
  context.controllerLog.record(req.headers, url, claims)

  if (req.method !== 'GET') throw new HttpProblem(405, 'Use GET here.', undefined, { Allow: 'GET' })
  const mode = modeOf(url)
  if (!claims) {
    throw new HttpProblem(401, token === undefined ? 'No token in X-Service-Auth or Authorization.' : 'The token is not valid.', undefined, {
      'WWW-Authenticate': 'Bearer',
    })
  }
  // A real controller would now check its user store and confirm the challenge at the
  // service (spec steps 4 and 5); the mock service has no authenticate endpoint yet.
  if (mode === 'deny') throw new HttpProblem(403, `${claims.sub} may not sign in here.`)

  const headers = { 'Set-Cookie': context.sessions.start(claims.sub) }
  const wantsJson = String(req.headers['x-requested-with']).toLowerCase() === 'xmlhttprequest'
  if (mode === 'redirect' || (mode === undefined && !wantsJson)) redirect(res, 302, WELCOME, headers)
  else if (mode === 'plain') sendBytes(res, 200, 'ok', 'text/plain; charset=utf-8', headers)
  // Verbatim, whatever it is: this is how tests offer the embed a hostile location.
  else if (mode === 'location') sendJson(res, 200, { location: url.searchParams.get('to') }, headers)
  else sendJson(res, 200, { location: WELCOME }, headers)
}

/** The token from X-Service-Auth, or from `Authorization: Bearer` for embeds configured that way. */
function tokenFrom(headers: IncomingHttpHeaders): string | undefined {
  const serviceAuth = headers['x-service-auth']
  if (typeof serviceAuth === 'string' && serviceAuth.trim()) return serviceAuth.trim()
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')
  return bearer?.[1]
}

/** The claims the controller needs, or null when the token is forged, expired or incomplete. */
async function verify(token: string, secret: Uint8Array): Promise<ControllerClaims | null> {
  try {
    // HS256 only: accepting the token's own choice of algorithm is the classic JWT hole.
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] })
    const { jti, sub, otp } = payload
    if (typeof jti !== 'string' || typeof sub !== 'string' || typeof otp !== 'string' || !jti || !sub || !otp) return null
    return { jti, sub, otp }
  } catch {
    return null
  }
}

function modeOf(url: URL): Mode | undefined {
  const mode = url.searchParams.get('mode')
  if (mode === null) return undefined
  if (!(MODES as readonly string[]).includes(mode)) {
    throw fieldProblem('mode', 'notAValidChoice', `The value you selected is not a valid choice. Choose one of: ${MODES.join(', ')}.`)
  }
  if (mode === 'location' && !url.searchParams.has('to')) {
    throw fieldProblem('to', 'isBlank', 'mode=location needs a to parameter.')
  }
  return mode as Mode
}
