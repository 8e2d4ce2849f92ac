// @ts-check
// Sign-in with service-auth in a Hono app on Node, with the Fetch-API form of the controller
// (`handleFetchRequest`: a Request in, a Response out), which runs the same on Bun, Deno and
// Cloudflare Workers. A login page with the widget, the controller, a page only a signed-in user sees.
//
//   SERVICE_URL=http://127.0.0.1:8081 SERVICE_KEY=… SERVICE_SECRET=… node examples/hono/app.mjs
//
// (`npx service-auth-mock` starts a local mock service and prints these three lines.)
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import { html } from 'hono/html'
import { createClient, handleFetchRequest } from 'service-auth/server'

// The embed and its stylesheet, from the installed package (a CDN serves the same files).
/** @type {Record<string, [specifier: string, type: string] | undefined>} */
const ASSETS = {
  'service-auth.js': ['service-auth/service-auth.js', 'text/javascript; charset=utf-8'],
  'service-auth.css': ['service-auth/style.css', 'text/css; charset=utf-8'],
}

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
  const app = new Hono()

  app.get('/assets/:name', async (c) => {
    const asset = ASSETS[c.req.param('name')]
    if (!asset) return c.notFound()
    const [specifier, type] = asset
    return c.body(await readFile(fileURLToPath(import.meta.resolve(specifier))), 200, { 'Content-Type': type })
  })

  app.get('/login', (c) => {
    return c.html(
      html`<!doctype html>
<html lang="en">
<link rel="icon" href="data:,">
<title>Sign in</title>
<link rel="stylesheet" href="/assets/service-auth.css">
<h1>Sign in</h1>
<div data-service-auth data-service-key="${key}" data-service-auth-url="/auth/controller" data-service-api="${serviceUrl}"></div>
<script src="/assets/service-auth.js" defer></script>
</html>`,
      200,
      pageHeaders(`default-src 'self'; img-src 'self' data:; connect-src 'self' ${serviceUrl}; ${EVERY_PAGE}`),
    )
  })

  // The controller: verifies the token, asks `users`, confirms at the service, starts the session.
  app.get('/auth/controller', (c) =>
    handleFetchRequest(c.req.raw, {
      client,
      secret,
      findUser: (identifier) => users.get(identifier),
      startSession: (user) => {
        const id = crypto.randomUUID()
        sessions.set(id, user)
        // Secure: browsers take it from http://localhost and 127.0.0.1 too.
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

/**
 * Starts the app on 127.0.0.1 (port 0, the default, takes a free one), as a test does.
 * @param {AppOptions & { port?: number }} options
 * @returns {Promise<{ url: string, close(): void }>} Its address, and how to stop it.
 */
export function startApp({ port = 0, ...options }) {
  return new Promise((resolve) => {
    const server = serve({ fetch: createApp(options).fetch, port, hostname: '127.0.0.1' }, (address) =>
      resolve({ url: `http://127.0.0.1:${address.port}`, close: () => server.close() }),
    )
  })
}

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
