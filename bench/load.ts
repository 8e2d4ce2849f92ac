// Measure 4: the load an idle widget puts on the service, in status requests per minute, with
// its tab visible and hidden, first with the spec's 1 s hold and then with a service that
// answers 204 at once. The naive baseline runs beside it, in the same windows of time.
//
// Four pages, each in a window of its own, run at once: the widget and the baseline visible,
// and both again in minimized windows, which Chromium reports as hidden (checked before and
// after each window; see browser.ts for why these pages come from a second connection). The
// service counts the requests per challenge as they arrive (probe.ts). A window is a real
// stretch of time, scaled to a minute; it opens after the pages have settled into the state.
import type { Page } from '@playwright/test'
import { setMinimized, type BenchBrowser } from './browser.js'
import type { Service } from '../e2e/service.js'
import { BASELINE_PATH, WIDGET_PATH } from './pages.js'
import { portOf, type Probe } from './probe.js'

export type LoadCase = 'widget-visible' | 'widget-hidden' | 'baseline-visible' | 'baseline-hidden'
export type HoldCase = 'held' | 'immediate'

export interface LoadResult {
  windowMs: number
  /** Status requests per minute, per hold setting and page. */
  perMinute: Record<HoldCase, Record<LoadCase, number>>
  /** Raw counts in the window. */
  counts: Record<HoldCase, Record<LoadCase, number>>
  /** Challenges created by any page during the windows: none is expected (the codes outlive them). */
  creations: Record<HoldCase, number>
}

interface Options {
  appUrl: string
  serviceUrl: string
  knobs: Service
  probe: Probe
  windowMs: number
  holdMs: number
}

const CASES: { name: LoadCase; path: string; hidden: boolean }[] = [
  { name: 'widget-visible', path: WIDGET_PATH, hidden: false },
  { name: 'widget-hidden', path: WIDGET_PATH, hidden: true },
  { name: 'baseline-visible', path: BASELINE_PATH, hidden: false },
  { name: 'baseline-hidden', path: BASELINE_PATH, hidden: true },
]

export async function measureLoad(browser: BenchBrowser, { appUrl, serviceUrl, knobs, probe, windowMs, holdMs }: Options): Promise<LoadResult> {
  const servicePort = portOf(serviceUrl)
  await knobs.configure({ holdMs })
  const pages: { name: LoadCase; page: Page; hidden: boolean; challengeId: string }[] = []
  try {
    for (const { name, path, hidden } of CASES) {
      const page = await browser.openWindow()
      await page.goto(appUrl + path)
      await page.waitForFunction(() => (window as any).__bench.ready > 0, null, { polling: 50, timeout: 15_000 })
      pages.push({ name, page, hidden, challengeId: await page.evaluate(() => (window as any).__bench.lastId as string) })
    }
    for (const { page, hidden } of pages) if (hidden) await setMinimized(page, true)

    const result: LoadResult = {
      windowMs,
      perMinute: { held: {} as Record<LoadCase, number>, immediate: {} as Record<LoadCase, number> },
      counts: { held: {} as Record<LoadCase, number>, immediate: {} as Record<LoadCase, number> },
      creations: { held: 0, immediate: 0 },
    }
    for (const hold of ['held', 'immediate'] as const) {
      if (hold === 'immediate') await knobs.configure({ holdMs: 0 })
      // Long enough for a poll in flight when the page went hidden, or held under the old setting, to end.
      await sleep(holdMs + 1500)
      await checkVisibility(pages)
      const counters = pages.map(({ name, challengeId }) => ({
        name,
        counter: probe.count(
          ({ port, method, url }) =>
            port === servicePort && method === 'GET' && url.includes(`/challenges/${challengeId}/`) && /\/(status|token)(\?|$)/.test(url),
        ),
      }))
      const creations = probe.count(({ port, method, url }) => port === servicePort && method === 'POST' && url === '/v1/entity/challenges')
      await sleep(windowMs)
      result.creations[hold] = creations.stop()
      for (const { name, counter } of counters) {
        const count = counter.stop()
        result.counts[hold][name] = count
        result.perMinute[hold][name] = (count * 60_000) / windowMs
      }
      await checkVisibility(pages)
    }
    return result
  } finally {
    await knobs.configure({ holdMs })
    for (const { page } of pages) await page.close().catch(() => {})
  }
}

/** Throws unless every page is as visible or hidden as its case says: a figure must not count the wrong state. */
async function checkVisibility(pages: { name: LoadCase; page: Page; hidden: boolean }[]): Promise<void> {
  for (const { name, page, hidden } of pages) {
    const actual = await page.evaluate(() => document.hidden)
    if (actual !== hidden) throw new Error(`${name}: document.hidden is ${actual}, the measurement needs ${hidden}.`)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
