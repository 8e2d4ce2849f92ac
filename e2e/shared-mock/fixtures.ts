// What each test gets, as an integrator's suite would set it up: a mock to steer (a key of its
// own on the shared mock, or a mock of its own), and the Express example app, started for the
// test with that key and secret, whose users are Ada. Plus the widget's events as the page saw
// them (README, Events), for what the person cannot see: why it reconnected, and when.
import { test as base, expect, type Page } from '@playwright/test'
import { connectMockService, startMockService, type MockServiceControls } from '@service-auth/mock'
import { startApp } from '../../examples/express/app.mjs'
import { SHARED_MOCK_URL } from './shared-mock.js'

export interface MockOptions {
  /** `shared`: the run's one mock, with a key of the test's own; `own`: a mock of the test's own. */
  mock: 'shared' | 'own'
}

export interface WidgetEvent {
  type: string
  detail: Record<string, unknown>
  /** performance.now() in the page when it was dispatched. */
  at: number
}

export const test = base.extend<MockOptions & { service: MockServiceControls; loginPage: string }>({
  mock: ['own', { option: true }],
  service: async ({ mock }, use) => {
    // Either way, close() when the test ends: the shared mock frees the test's key, a mock of its own stops.
    const service = mock === 'shared' ? await connectMockService({ url: process.env[SHARED_MOCK_URL]!, isolate: true }) : await startMockService()
    await use(service)
    await service.close()
  },
  loginPage: async ({ service, page }, use) => {
    const app = await startApp({ serviceUrl: service.url, key: service.key, secret: service.secret, users: new Map([['ada@example.com', { name: 'Ada' }]]) })
    await page.addInitScript(() => {
      const seen: unknown[] = ((window as any).__widgetEvents = [])
      for (const type of ['ready', 'signed', 'success', 'expired', 'error']) {
        document.addEventListener(`service-auth:${type}`, (event) => seen.push({ type, detail: (event as CustomEvent).detail, at: performance.now() }))
      }
    })
    await use(app.url + '/login')
    app.close()
  },
})

/** The widget's events so far on the page, in order. */
export const widgetEvents = (page: Page): Promise<WidgetEvent[]> => page.evaluate(() => (window as any).__widgetEvents)

export { expect }
