// Each worker runs its own demo (mock service + example app) on ephemeral ports; each test starts
// from a reset service. Tests steer the "phone" and the service through the knob endpoints.
import { test as base, expect, type Page } from '@playwright/test'
import { startDemo, type Demo } from 'service-auth-demo'
import { Service } from './service.js'

/** The element the embed mounted on (the first, where a page has several). */
export const widget = (page: Page) => page.locator('[data-service-auth]')

/** The id of the challenge the page announced last (its `service-auth:ready` event). */
export async function shownChallenge(page: Page, index = -1): Promise<string> {
  await expect.poll(() => readyIds(page)).not.toHaveLength(0)
  return (await readyIds(page)).at(index)!
}

// None yet while the page's events.js has not run: a page just navigated to (by a click, whose
// wait ends at the URL) may not have run its scripts when the first poll reads this.
export const readyIds = (page: Page): Promise<string[]> =>
  page.evaluate(() =>
    (((window as any).__events ?? []) as { type: string; detail: any }[]).filter((e) => e.type === 'service-auth:ready').map((e) => e.detail.challengeId),
  )

export const eventTypes = (page: Page): Promise<string[]> =>
  page.evaluate(() => (((window as any).__events ?? []) as { type: string }[]).map((e) => e.type.replace('service-auth:', '')))

/**
 * When the page started its requests to URLs whose path ends in `suffix`, from Resource Timing: the
 * browser's own clock, free of the network jitter that server-side arrival times carry.
 */
export const requestStarts = (page: Page, suffix: string): Promise<number[]> =>
  page.evaluate(
    // By path: a status URL ends in its polling secret (?secret=...).
    (suffix) =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith(suffix))
        .map((entry) => entry.startTime),
    suffix,
  )

/** Gaps between consecutive times. */
export const gapsBetween = (times: number[]): number[] => times.slice(1).map((time, i) => time - times[i])

/** Builds a /fixture URL; see demo/README.md for the parameters. */
export const fixture = (params: Record<string, string | number> = {}) =>
  '/fixture?' + new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))

export const test = base.extend<{ service: Service }, { demo: Demo }>({
  demo: [
    async ({}, use) => {
      // Test modes on: the specs cover every kind of controller answer (`?mode=...`).
      const demo = await startDemo({ testModes: true })
      await use(demo)
      await demo.close()
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ demo }, use) => use(demo.appUrl),
  service: async ({ demo }, use) => {
    const service = new Service(demo)
    await service.reset()
    await use(service)
  },
})

export { expect, Service }
export type { ControllerCall } from './service.js'
