// The example client application: an integrator's site with a sign-in page, its controller,
// a welcome page, and the bare fixture page the end-to-end tests drive.
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import {
  closeServer,
  listen,
  AllowedHosts,
  refuseForeignHost,
  sendBytes,
  sendEmpty,
  sendJson,
  handlerFor,
  matchRoute,
  requestPath,
  requestUrl,
  type Route,
  HttpProblem,
  serve,
} from '@service-auth/http'
import { createClient } from 'service-auth/server'
import type { AppContext, AppHandler } from './context.js'
import { authController } from './controller-route.js'
import { ControllerLog } from './controller-log.js'
import { enrollPhone } from './enroll-phone.js'
import { sendErrorPage, wantsHtml } from './error-page.js'
import { deleteIdentity, updateIdentity } from './identity-admin.js'
import { enrol, enrolForm } from './pages/enrol-page.js'
import { fixturePage } from './pages/fixture-page.js'
import { indexPage } from './pages/index-page.js'
import { loginPage } from './pages/login-page.js'
import { phonePage } from './pages/phone-page.js'
import { logout, welcomePage } from './pages/welcome-page.js'
import { refuseCrossSite } from './same-origin.js'
import { sendPage } from './send-page.js'
import { Sessions } from './sessions.js'
import { DIST_FILE_PATTERN, serveFile } from './static-files.js'
import { Users } from './users.js'
import { APP_COLLECTIONS } from './collections.js'
import { answeringWhenStored, memoryStore, type Store } from '@service-auth/mock/service'

export interface AppOptions {
  port?: number
  /** The sign-in service's base URL. */
  serviceUrl: string
  apiKey: string
  /** Base64 text of the secret's bytes. */
  apiSecret: string
  /** The built embed files, e.g. `<repo>/dist`. */
  distDir: string
  /**
   * Pages of the caller's own by path (the benchmark's, say), served on the app's origin: only
   * there may a page call this app's controller, and only there does the service let it create
   * challenges. HTML, or JavaScript for a path ending in `.js`; they come before the app's routes.
   */
  pages?: Record<string, ExtraPage>
  /**
   * The controller's test modes (`mode=redirect|plain|deny|location`), for end-to-end tests that
   * need every kind of controller; default false, and `npm start` leaves them off.
   */
  testModes?: boolean
  /**
   * Host names the app answers to besides 127.0.0.1 and localhost with its port (see the
   * service's option of the same name): any other Host is refused, against DNS rebinding.
   */
  allowedHosts?: string[]
  /** Where the app keeps its users and sessions (see ServiceOptions.store), opened with APP_COLLECTIONS; default in memory. */
  store?: Store
}

/**
 * Renders one of the caller's pages; `site` tells it where the service is and which key to use.
 * It returns the page, or the page and headers of its own (a bench page that must be
 * cross-origin isolated, for its finer clock).
 */
export type ExtraPage = (site: { serviceUrl: string; apiKey: string; url: URL }) => string | { body: string; headers: Record<string, string> }

export interface AppHandle {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string
  close(): Promise<void>
}

const ROUTES: Route<AppHandler>[] = [
  { pattern: /^\/$/, methods: { GET: indexPage } },
  { pattern: /^\/login$/, methods: { GET: loginPage } },
  { pattern: /^\/fixture$/, methods: { GET: fixturePage } },
  { pattern: /^\/welcome$/, methods: { GET: welcomePage } },
  { pattern: /^\/enrol$/, methods: { GET: enrolForm, POST: enrol } },
  { pattern: /^\/phone$/, methods: { GET: phonePage } },
  { pattern: /^\/logout$/, methods: { POST: logout } },
  // Every method, so the controller logs even the requests it refuses.
  { pattern: /^\/auth\/controller$/, methods: { '*': authController } },
  { pattern: /^\/__app\/enroll$/, methods: { POST: enrollPhone } },
  { pattern: /^\/__app\/identities\/([^/]+)$/, methods: { POST: updateIdentity, DELETE: deleteIdentity } },
  { pattern: /^\/__app\/controller-log$/, methods: { GET: (context, { res }) => sendJson(res, 200, context.controllerLog.entries()) } },
  {
    pattern: /^\/__app\/reset$/,
    methods: {
      POST: (context, { res }) => {
        context.controllerLog.clear()
        context.users.clear()
        context.sessions.clear()
        sendEmpty(res, 204)
      },
    },
  },
  { pattern: DIST_FILE_PATTERN, methods: { GET: (context, { res, params }) => serveFile(res, context.distDir, params[0]!) } },
  { pattern: /^\/public\/(.+)$/, methods: { GET: (context, { res, params }) => serveFile(res, context.publicDir, params[0]!) } },
]

export async function startApp(options: AppOptions): Promise<AppHandle> {
  const serviceUrl = new URL(options.serviceUrl)
  if (!/^https?:$/.test(serviceUrl.protocol)) throw new Error(`serviceUrl must be an http(s) URL, not ${options.serviceUrl}.`)
  if (!options.apiKey) throw new Error('startApp needs an apiKey.')
  // Made first, so a mistyped secret (createClient checks it) stops the start instead of failing every sign-in.
  const serviceClient = createClient({ baseUrl: serviceUrl.href, key: options.apiKey, secret: options.apiSecret })
  const store = options.store ?? memoryStore({ collections: APP_COLLECTIONS })
  const context: AppContext = {
    serviceUrl: serviceUrl.href.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    serviceClient,
    distDir: options.distDir,
    publicDir: fileURLToPath(new URL('./public/', import.meta.url)),
    sessions: new Sessions(store.collection('app-sessions')),
    users: new Users(store.collection('app-users')),
    controllerLog: new ControllerLog(),
    testModes: options.testModes ?? false,
  }

  const routes = [...extraRoutes(options.pages ?? {}), ...ROUTES]
  const allowedHosts = new AllowedHosts(options.allowedHosts)
  const server = createServer(
    // The app's users and sessions are in the store: an answer leaves once what it stored is on
    // disk, or is a 507 when the disk cannot take it.
    serve(
      answeringWhenStored(async (req, res) => {
        // A page on a rebound name is same-origin with the app, so its posts pass refuseCrossSite.
        refuseForeignHost(req, allowedHosts)
        const url = requestUrl(req.url, 'http://127.0.0.1')
        try {
          const match = matchRoute(routes, requestPath(req.url!))
          const handler = handlerFor(match, req.method)
          refuseCrossSite(req)
          await handler(context, { req, res, url, params: match!.params })
        } catch (error) {
          // A person's browser gets a page; every other client, problem JSON (from serve()).
          if (!(error instanceof HttpProblem) || !wantsHtml(req) || res.headersSent) throw error
          sendErrorPage(res, error, url.pathname)
        }
      }),
      { serverName: 'demo app' },
    ),
  )
  const url = await listen(server, options.port)
  allowedHosts.addOwn(url)
  return {
    url,
    async close() {
      await closeServer(server)
      if (!options.store) await store.close()
    },
  }
}

function extraRoutes(pages: Record<string, ExtraPage>): Route<AppHandler>[] {
  return Object.entries(pages).map(([path, render]) => ({
    pattern: new RegExp('^' + path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$'),
    methods: {
      GET: (context: AppContext, { res, url }) => {
        const rendered = render({ serviceUrl: context.serviceUrl, apiKey: context.apiKey, url })
        const { body, headers } = typeof rendered === 'string' ? { body: rendered, headers: {} } : rendered
        if (path.endsWith('.js')) sendBytes(res, 200, body, 'text/javascript; charset=utf-8', headers)
        else sendPage(res, 200, body, { headers })
      },
    },
  }))
}
