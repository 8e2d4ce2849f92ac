// Runs every scenario (scenarios.ts) in one engine, under vitest: one browser for the file, a new
// tab per scenario, and a reset service. After each scenario: no console error, uncaught error or
// unhandled rejection, from the browser's log where its driver has one, and from the pages' own
// record in every engine, beyond what the engine logs for the 4xx and 5xx answers the scenarios ask for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Demo } from 'service-auth-demo'
import { Service } from '../service.js'
import type { Engine, EngineName, Tab } from './driver.js'
import { startEnginesDemo } from './demo.js'
import { scenarios } from './scenarios.js'

/** What each browser logs by itself for an answer the scenarios ask for (a 429, a 503, a dropped connection): not the page's doing. */
const BROWSER_MESSAGES: Record<EngineName, RegExp[]> = {
  chromium: [
    /^console\.error: Failed to load resource: the server responded with a status of (410 \(Gone\)|429 \(Too Many Requests\)|503 \(Service Unavailable\))$/,
    /^console\.error: Failed to load resource: net::ERR_EMPTY_RESPONSE$/,
  ],
  // Firefox reports a request that got no answer as a script error, naming CORS whatever the cause.
  firefox: [
    /^uncaught: Cross-Origin Request Blocked: The Same Origin Policy disallows reading the remote resource at http:\/\/127\.0\.0\.1:\d+\/v1\/entity\/challenges\/[\w-]+\/status\?secret=[\w-]+\. \(Reason: CORS request did not succeed\)\. Status code: \(null\)\.$/,
  ],
  webkit: [],
}

/** The pages' own record (demo/app/public/events.js), kept in the tab's sessionStorage across navigations. */
const pageRecord = (tab: Tab): Promise<string[]> => tab.evaluate(() => JSON.parse(sessionStorage.getItem('service-auth-demo:problems') || '[]') as string[])

export function describeEngine(name: EngineName, launch: () => Promise<Engine>): void {
  describe(name, () => {
    let engine: Engine
    let demo: Demo
    let service: Service

    beforeAll(async () => {
      ;[demo, engine] = await Promise.all([startEnginesDemo(), launch()])
      service = new Service(demo)
      console.log(`${name}: ${engine.version}`)
    })
    afterAll(async () => {
      await Promise.all([engine?.close(), demo?.close()])
    })

    for (const scenario of scenarios) {
      it(scenario.name, async () => {
        await service.reset()
        const tab = await engine.newTab()
        try {
          await scenario.run({ tab, service, demo, engine: name })
          const expected = [...BROWSER_MESSAGES[name], ...(scenario.expectedMessages ?? [])]
          const unexpected = [...tab.logged(), ...(await pageRecord(tab))].filter((message) => !expected.some((pattern) => pattern.test(message)))
          expect(unexpected).toEqual([])
        } finally {
          await tab.close()
        }
      })
    }
  })
}
