// @ts-check
// The Vue example's server, with Hono on Node: the login page that `vite build examples/vue`
// wrote (a Vue app with the <ServiceAuth> component), the controller the widget hands the signed
// token to (`handleFetchRequest`), and a page only a signed-in user sees.
//
//   npx vite build examples/vue
//   SERVICE_URL=http://127.0.0.1:8081 SERVICE_KEY=… SERVICE_SECRET=… node examples/vue/server.mjs
//
// (`npx service-auth-mock` starts a local mock service and prints these three lines.)
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import { html } from 'hono/html'
import { createClient, handleFetchRequest } from 'service-auth/server'

const DIST = new URL('dist/', import.meta.url)
const TYPES = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' }

// Every page refuses to be framed by another site (clickjacking); the login page's policy also
// says which origins it may load from: its own (Vite's script and stylesheet) and the service.
const EVERY_PAGE = "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
/** @param {string} policy */
const pageHeaders = (policy = EVERY_PAGE) => ({ 'Content-Security-Policy': policy, 'X-Frame-Options': 'DENY' })

/** @param {string} text */
const escapeHtml = (text) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * @typedef {object} AppOptions
 * @property {string} serviceUrl The service's base URL.
 * @property {string} key The API key.
 * @property {string} secret The API secret (Base64).
 * @property {Map<string, { name: string }>} users Who may sign in, by the identifier the service knows them by.
 */

/**
 * Sessions are kept in memory here; use your real session store.
 * @param {AppOptions} options
 */
export async function createApp({ serviceUrl, key, secret, users }) {
  const client = createClient({ baseUrl: serviceUrl, key, secret })
  /** @type {Map<string | undefined, { name: string }>} */
  const sessions = new Map()
  // The built page, with the service's address and key on the app's root element.
  const loginPage = (await readFile(new URL('index.html', DIST), 'utf8')).replace(
    '<div id="app"></div>',
    `<div id="app" data-api="${escapeHtml(serviceUrl)}" data-key="${escapeHtml(key)}"></div>`,
  )
  const app = new Hono()

  // Vite's hashed files: immutable.
  app.get('/assets/:name', async (c) => {
    const name = c.req.param('name')
    const type = TYPES[/** @type {keyof typeof TYPES} */ (extname(name))]
    if (!type || !/^[\w.-]+$/.test(name)) return c.notFound()
    const body = await readFile(new URL(`assets/${name}`, DIST)).catch(() => undefined)
    if (!body) return c.notFound()
    return c.body(body, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable' })
  })

  app.get('/login', (c) => c.html(loginPage, 200, pageHeaders(`default-src 'self'; img-src 'self' data:; connect-src 'self' ${serviceUrl}; ${EVERY_PAGE}`)))

  // The controller: verifies the token, asks `users`, confirms at the service, starts the session.
  app.get('/auth/controller', (c) =>
    handleFetchRequest(c.req.raw, {
      client,
      secret,
      findUser: (identifier) => users.get(identifier),
      startSession: (user) => {
        const id = crypto.randomUUID()
        sessions.set(id, user)
        return { location: '/welcome', headers: { 'Set-Cookie': `session=${id}; Path=/; HttpOnly; Secure; SameSite=Lax` } }
      },
    }),
  )

  app.get('/welcome', (c) => {
    const user = sessions.get(getCookie(c, 'session'))
    if (!user) return c.redirect('/login')
    return c.html(
      html`<!doctype html>
<html lang="en">
<link rel="icon" href="data:,">
<title>Welcome</title>
<h1>Signed in as ${user.name}</h1>
<form method="post" action="/logout"><button>Sign out</button></form>
</html>`,
      200,
      pageHeaders(),
    )
  })

  app.post('/logout', (c) => {
    sessions.delete(getCookie(c, 'session'))
    deleteCookie(c, 'session', { path: '/' })
    return c.redirect('/login', 303)
  })

  return app
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { SERVICE_URL, SERVICE_KEY, SERVICE_SECRET, PORT = '3000' } = process.env
  if (!SERVICE_URL || !SERVICE_KEY || !SERVICE_SECRET) {
    console.error('Set SERVICE_URL, SERVICE_KEY and SERVICE_SECRET (npx service-auth-mock prints them).')
    process.exit(1)
  }
  const users = new Map([['ada@example.com', { name: 'Ada' }]])
  const app = await createApp({ serviceUrl: SERVICE_URL, key: SERVICE_KEY, secret: SERVICE_SECRET, users })
  serve({ fetch: app.fetch, port: Number(PORT), hostname: '127.0.0.1' }, (address) => console.log(`http://127.0.0.1:${address.port}/login`))
}
