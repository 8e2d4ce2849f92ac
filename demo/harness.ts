// The whole demo in one call: the mock service and the example app, wired to each other with
// the store's credentials (fresh ones in memory). End-to-end tests and `npm start` both start it this way.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { memoryStore, rememberedCredentials, startService, type Store } from '@service-auth/mock/service'
import { APP_COLLECTIONS } from './app/collections.js'
import { startApp, type ExtraPage } from './app/server.js'

export interface DemoOptions {
  /** Default 0: any free port. */
  appPort?: number
  /** Default 0: any free port. */
  servicePort?: number
  /**
   * Serve the service's /__knobs/ endpoints; default true: tests steer through them, and the
   * demo's phone page and QA panel drive them from the app's pages, the only pages they answer.
   */
  knobs?: boolean
  /** More origins whose pages may use the knobs (ServiceOptions.knobsOrigins). */
  knobsOrigins?: string[]
  /** More host names both servers answer to (ServiceOptions.allowedHosts). */
  allowedHosts?: string[]
  /** Pages of the caller's own on the app's origin, by path (see AppOptions.pages). */
  pages?: Record<string, ExtraPage>
  /** The controller's test modes (AppOptions.testModes); default false, as `npm start` runs it. */
  testModes?: boolean
  /**
   * Where the service and the app keep their state, and the key and secret made up at the
   * first start (`npm start` opens a data directory), opened with the app's collections
   * (`{ collections: APP_COLLECTIONS }`). Default: in memory, gone with close(). A store passed in
   * is the caller's to close, after the demo.
   */
  store?: Store
}

export interface Demo {
  appUrl: string
  serviceUrl: string
  apiKey: string
  /** Base64. */
  apiSecret: string
  close(): Promise<void>
}

// The built embed, wherever the installed package is: what an integrator's site would serve from its own origin.
const DIST_DIR = join(dirname(createRequire(import.meta.url).resolve('service-auth/package.json')), 'dist')

export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const store = options.store ?? memoryStore({ collections: APP_COLLECTIONS })
  const { apiKey, apiSecret } = rememberedCredentials(store)
  await store.flushed()
  // The app needs the service's URL and the service needs the app's origin: the service
  // starts first, open to any origin, and is narrowed to the app before anyone can use it.
  const service = await startService({
    port: options.servicePort ?? 0,
    keys: [{ key: apiKey, secret: apiSecret, allowedOrigins: [] }],
    knobs: options.knobs ?? true,
    knobsOrigins: options.knobsOrigins,
    allowedHosts: options.allowedHosts,
    store,
  })
  const closeStore = async () => {
    if (!options.store) await store.close()
  }
  try {
    const app = await startApp({
      port: options.appPort ?? 0,
      serviceUrl: service.url,
      apiKey,
      apiSecret,
      distDir: DIST_DIR,
      pages: options.pages,
      testModes: options.testModes,
      allowedHosts: options.allowedHosts,
      store,
    })
    // The app listens on 127.0.0.1, but people type localhost too; both are the app's origin.
    const appOrigins = [app.url, app.url.replace('//127.0.0.1:', '//localhost:')]
    service.setAllowedOrigins(apiKey, appOrigins)
    // The app's pages (the phone page, the QA panel) drive the knobs; no other page may.
    service.addKnobsOrigins(appOrigins)
    return {
      appUrl: app.url,
      serviceUrl: service.url,
      apiKey,
      apiSecret,
      close: async () => {
        await Promise.all([app.close(), service.close()])
        await closeStore()
      },
    }
  } catch (error) {
    await service.close()
    await closeStore()
    throw error
  }
}
