// @ts-check
// Sign-in with service-auth in an Express app: a login page with the widget, the controller the
// widget hands the signed token to, and a page only a signed-in user sees.
//
//   SERVICE_URL=http://127.0.0.1:8081 SERVICE_KEY=… SERVICE_SECRET=… node examples/express/app.mjs
//
// (`npx service-auth-mock` starts a local mock service and prints these three lines.)
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import express from 'express'
import { createClient, handleControllerRequest } from 'service-auth/server'

// The embed and its stylesheet, served from /assets/; the login page links both.
const ASSETS = [
  ['service-auth.js', 'service-auth/service-auth.js'],
  ['service-auth.css', 'service-auth/style.css'],
]

// Every page refuses to be framed by another site, which could lay it under buttons of its own
// (clickjacking); X-Frame-Options is for browsers older than frame-ancestors. No <base> or
// plugins either. The login page's policy says more: which origins it may load from.
const EVERY_PAGE = "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
/** @param {string} policy */
const pageHeaders = (policy = EVERY_PAGE) => ({ 'Content-Security-Policy': policy, 'X-Frame-Options': 'DENY' })

/**
 * @typedef {object} AppOptions
 * @property {string} serviceUrl The service's base URL.
 * @property {string} key The API key.
 * @property {string} secret The API secret (Base64).
 * @property {Map<string, { name: string }>} users Your user store: who may sign in, by the
 *   identifier the service knows them by.
 */

/**
 * Sessions are kept in memory here; use your real session store.
 * @param {AppOptions} options
 */
export function createApp({ serviceUrl, key, secret, users }) {
  const client = createClient({ baseUrl: serviceUrl, key, secret })
  /** @type {Map<string | undefined, { name: string }>} */
  const sessions = new Map()
  const app = express()
  /** @param {express.Request} req */
  const sessionIdOf = (req) => /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1]

  // The embed and its stylesheet, from the installed package (a CDN serves the same files).
  for (const [name, specifier] of ASSETS) app.get(`/assets/${name}`, (_req, res) => res.sendFile(fileURLToPath(import.meta.resolve(specifier))))

  app.get('/login', (_req, res) => {
    res.set(pageHeaders(`default-src 'self'; img-src 'self' data:; connect-src 'self' ${serviceUrl}; ${EVERY_PAGE}`))
    res.type('html').send(`<!doctype html>
<html lang="en">
<link rel="icon" href="data:,">
<title>Sign in</title>
<link rel="stylesheet" href="/assets/service-auth.css">
<h1>Sign in</h1>
<div data-service-auth data-service-key="${escapeHtml(key)}" data-service-auth-url="/auth/controller" data-service-api="${escapeHtml(serviceUrl)}"></div>
<script src="/assets/service-auth.js" defer></script>
</html>`)
  })

  // The controller: verifies the token, asks `users`, confirms at the service, starts the session.
  app.get('/auth/controller', async (req, res) => {
    const answer = await handleControllerRequest(req, {
      client,
      secret,
      findUser: (identifier) => users.get(identifier),
      startSession: (user) => {
        const id = randomUUID()
        sessions.set(id, user)
        // Secure: browsers take it from http://localhost and 127.0.0.1 too.
        return { location: '/welcome', headers: { 'Set-Cookie': `session=${id}; Path=/; HttpOnly; Secure; SameSite=Lax` } }
      },
    })
    res.status(answer.status).set(answer.headers).send(answer.body)
  })

  app.get('/welcome', (req, res) => {
    const user = sessions.get(sessionIdOf(req))
    if (!user) return res.redirect('/login')
    res
      .set(pageHeaders())
      .type('html')
      .send(`<!doctype html>
<html lang="en">
<link rel="icon" href="data:,">
<title>Welcome</title>
<h1>Signed in as ${escapeHtml(user.name)}</h1>
<form method="post" action="/logout"><button>Sign out</button></form>
</html>`)
  })

  app.post('/logout', (req, res) => {
    sessions.delete(sessionIdOf(req))
    res.set('Set-Cookie', 'session=; Path=/; Max-Age=0').redirect(303, '/login')
  })

  return app
}

/**
 * Starts the app on 127.0.0.1 (port 0, the default, takes a free one), as a test does.
 * @param {AppOptions & { port?: number }} options
 * @returns {Promise<{ url: string, close(): void }>} Its address, and how to stop it.
 */
export function startApp({ port = 0, ...options }) {
  return new Promise((resolve, reject) => {
    const server = createApp(options).listen(port, '127.0.0.1', () => {
      const address = /** @type {import('node:net').AddressInfo} */ (server.address())
      resolve({ url: `http://127.0.0.1:${address.port}`, close: () => server.close() })
    })
    server.once('error', reject)
  })
}

/** @param {string} text */
const escapeHtml = (text) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { SERVICE_URL, SERVICE_KEY, SERVICE_SECRET, PORT = '3000' } = process.env
  if (!SERVICE_URL || !SERVICE_KEY || !SERVICE_SECRET) {
    console.error('Set SERVICE_URL, SERVICE_KEY and SERVICE_SECRET (npx service-auth-mock prints them).')
    process.exit(1)
  }
  const users = new Map([['ada@example.com', { name: 'Ada' }]])
  const { url } = await startApp({ serviceUrl: SERVICE_URL, key: SERVICE_KEY, secret: SERVICE_SECRET, users, port: Number(PORT) })
  console.log(`${url}/login`)
}
