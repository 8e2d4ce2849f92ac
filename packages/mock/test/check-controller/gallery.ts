// A gallery of controllers for the check to judge: one written right, by hand from spec section 4
// (jose for the token, the helper's client for the confirmation), and the same with one flaw
// each, the mistakes integrators make when they write the six steps themselves. Each flaw is a
// line or two away from the right code, as it is in real controllers.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose'
import { createClient, ServiceError, ServiceUnreachableError } from 'service-auth/server'

export type Flaw =
  | 'skips the signature check'
  | 'accepts alg: none'
  | 'ignores exp'
  | 'never confirms'
  | 'confirms but ignores the answer'
  | 'fails open when the service is down'
  | "follows the service's redirects"
  | 'skips the user store'
  | 'sends the browser to javascript:'
  | 'redirects the browser to javascript:'
  | 'redirects the browser to another origin'

/** The location of the flaws that send the browser to script. */
export const JAVASCRIPT = 'javascript:alert(document.cookie)'
/** Where the flaw that redirects to another origin sends the browser: the app's own page, on another host. */
export const ELSEWHERE = 'https://app.example/welcome'

export interface GalleryOptions {
  /** The one flaw (or several, as a controller may have); none for the controller written right. */
  flaw?: Flaw | Flaw[]
  service: { url: string; key: string; secret: string }
  /** Who may sign in, by identifier. */
  users: ReadonlySet<string>
}

/** Starts the app (its controller at /auth/controller, its signed-in page at /welcome) on 127.0.0.1. */
export async function startGalleryApp({ flaw, service, users }: GalleryOptions): Promise<{ url: string; close(): Promise<void> }> {
  const secret = new Uint8Array(Buffer.from(service.secret, 'base64'))
  // A short time limit, so that a run of the check waits 2 s for it, not 10.
  // "Follows the service's redirects": as fetch, urllib and PHP's streams do by default.
  const follow: typeof fetch = (url, init) => fetch(url, { ...init, redirect: 'follow' })
  const client = createClient({
    baseUrl: service.url,
    key: service.key,
    secret: service.secret,
    timeout: 2000,
    ...(flaw === "follows the service's redirects" && { fetch: follow }),
  })
  const sessions = new Map<string, string>()
  const flaws = new Set([flaw ?? []].flat())
  const has = (one: Flaw) => flaws.has(one)

  /** Steps 2 and 3: the token's claims, once verified (or not, as the flaw has it). */
  async function claimsOf(token: string): Promise<JWTPayload> {
    // Checked by hand where a flaw skips jwtVerify, as such controllers do.
    const unexpired = (claims: JWTPayload) => {
      if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) throw new Error('expired')
      return claims
    }
    if (has('skips the signature check')) return unexpired(decodeJwt(token))
    if (has('accepts alg: none') && decodeProtectedHeader(token).alg === 'none') return unexpired(decodeJwt(token))
    // "Ignores exp": a clock tolerance no token outlives.
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], ...(has('ignores exp') && { clockTolerance: 1e12 }) })
    return payload
  }

  /** Step 5: whether the service confirmed; an error when it could not be asked. */
  async function confirmed(sub: string, jti: string, otp: string): Promise<boolean> {
    if (has('never confirms')) return true
    try {
      await client.authenticate(sub, { challenge: jti, otp })
      return true
    } catch (error) {
      const down = error instanceof ServiceUnreachableError || (error instanceof ServiceError && error.status >= 500)
      if (has('fails open when the service is down') && down) return true
      if (has('confirms but ignores the answer') && error instanceof ServiceError && !(error instanceof ServiceUnreachableError)) return true
      if (down) throw error
      return false
    }
  }

  async function controller(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refuse = (status: number) => void res.writeHead(status, { 'Content-Type': 'application/problem+json' }).end(JSON.stringify({ status }))
    if (req.headers['x-requested-with'] !== 'XMLHttpRequest') return refuse(400)
    const site = req.headers['sec-fetch-site']
    if (site !== undefined && site !== 'same-origin') return refuse(403)
    let claims: JWTPayload
    try {
      claims = await claimsOf(String(req.headers['x-service-auth'] ?? ''))
    } catch {
      return refuse(401)
    }
    const { sub, jti, otp } = claims
    if (typeof sub !== 'string' || typeof jti !== 'string' || typeof otp !== 'string') return refuse(401)
    if (!has('skips the user store') && !users.has(sub)) return refuse(403)
    try {
      if (!(await confirmed(sub, jti, otp))) return refuse(401)
    } catch {
      return refuse(502)
    }
    const id = randomUUID()
    sessions.set(id, sub)
    const cookie = `session=${id}; Path=/; HttpOnly; SameSite=Lax`
    // Where to go next, taken from somewhere no one checked: a location the embed refuses to navigate to.
    if (has('redirects the browser to javascript:')) return void res.writeHead(302, { Location: JAVASCRIPT, 'Set-Cookie': cookie }).end()
    // A redirect, as a controller answers a form: to another origin, which the embed's fetch does not follow.
    if (has('redirects the browser to another origin')) return void res.writeHead(302, { Location: ELSEWHERE, 'Set-Cookie': cookie }).end()
    const location = has('sends the browser to javascript:') ? JAVASCRIPT : '/welcome'
    res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': cookie }).end(JSON.stringify({ location }))
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://app').pathname
    if (path === '/auth/controller') return void controller(req, res)
    const session = /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1]
    if (path === '/welcome' && session && sessions.has(session))
      return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`Signed in as ${sessions.get(session)}`)
    res.writeHead(path === '/welcome' ? 302 : 404, { Location: '/login' }).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
