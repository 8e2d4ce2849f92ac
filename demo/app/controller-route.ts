// GET /auth/controller: the integrator's controller (spec section 4, "Client application
// controller"), built on handleControllerRequest from service-auth/server: it verifies the token,
// asks this site's user store, confirms the challenge at the service and starts the session.
// With test modes on (the end-to-end harness only; never in `npm start`), the `mode` query
// parameter reshapes the answer into the other forms controllers in the wild give, so tests can
// cover how the embed follows each of them. Off, a mode is a 400: a crafted link cannot make
// this controller send a freshly signed-in person anywhere but /welcome.
import type { IncomingHttpHeaders } from 'node:http'
import { fieldProblem, HttpProblem, redirect, sendBytes, sendJson } from '@service-auth/http'
import { handleControllerRequest } from 'service-auth/server'
import type { AppHandler } from './context.js'

const MODES = ['redirect', 'plain', 'deny', 'location'] as const
type Mode = (typeof MODES)[number]

const WELCOME = '/welcome'

export const authController: AppHandler = async (context, { req, res, url }) => {
  // Logged before anything can refuse the request: tests assert on refused requests too.
  const entry = context.controllerLog.record(req.headers, url)
  res.once('finish', () => (entry.status = res.statusCode))

  if (req.method !== 'GET') throw new HttpProblem(405, 'Use GET here.', undefined, { Allow: 'GET' })
  const mode = modeOf(url, context.testModes)
  let cookie: string | undefined
  const answer = await handleControllerRequest(req, {
    client: context.serviceClient,
    secret: context.apiSecret,
    header: tokenHeader(req.headers),
    findUser: (identifier, claims) => {
      // Only a token that checked out gets here.
      context.controllerLog.claimed(entry, claims)
      return mode === 'deny' ? undefined : context.users.maySignIn(identifier)
    },
    startSession: (user) => {
      cookie = context.sessions.start(user.identifier, req.headers.cookie)
      return WELCOME
    },
  })

  const session = cookie === undefined ? {} : { 'Set-Cookie': cookie }
  if (cookie !== undefined && mode === 'redirect') return redirect(res, 302, WELCOME, session)
  // Verbatim, whatever it is: this is how tests offer the embed a hostile location, which the
  // helper would refuse to send (it answers 500 for a location off this site).
  if (cookie !== undefined && mode === 'location') return sendJson(res, 200, { location: url.searchParams.get('to')! }, session)
  if (cookie !== undefined && mode === 'plain') return sendBytes(res, 200, 'ok', 'text/plain; charset=utf-8', session)
  // The helper's own answer: JSON {location} to the embed, or a problem (400 not the embed's
  // request, 401 bad token or unconfirmed, 403 not a user here, 423 locked, 502 service down).
  res.writeHead(answer.status, { ...answer.headers, ...session }).end(answer.body)
}

/** X-Service-Auth, or Authorization (`Bearer <token>`) for embeds configured with that header. */
function tokenHeader(headers: IncomingHttpHeaders): string {
  return headers['x-service-auth'] === undefined && /^Bearer\s/i.test(headers.authorization ?? '') ? 'Authorization' : 'X-Service-Auth'
}

function modeOf(url: URL, testModes: boolean): Mode | undefined {
  const mode = url.searchParams.get('mode')
  if (mode === null) return undefined
  if (!testModes) throw fieldProblem('mode', 'notAValidChoice', 'This controller has no test modes; leave mode out.')
  if (!(MODES as readonly string[]).includes(mode)) {
    throw fieldProblem('mode', 'notAValidChoice', `The value you selected is not a valid choice. Choose one of: ${MODES.join(', ')}.`)
  }
  if (mode === 'location' && !url.searchParams.has('to')) {
    throw fieldProblem('to', 'isBlank', 'mode=location needs a to parameter.')
  }
  if (mode === 'location' && leavesThisSite(url.searchParams.get('to')!)) {
    throw fieldProblem('to', 'notAValidChoice', 'mode=location takes a path on this site, never another origin.')
  }
  return mode as Mode
}

/**
 * Whether an http(s) location names another origin (`https://evil.example`, `//evil.example`).
 * Other schemes pass: the embed must refuse those itself, and tests check that it does.
 */
function leavesThisSite(location: string): boolean {
  const here = 'http://this-site.invalid'
  let target: URL
  try {
    target = new URL(location, here + '/auth/controller')
  } catch {
    return false
  }
  return /^https?:$/.test(target.protocol) && target.origin !== here
}
