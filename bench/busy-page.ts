// Start-up aside: what the CDN build costs a page that keeps changing. It watches the whole
// document with a MutationObserver so that single-page apps can add and remove widgets. Each
// batch of changes used to run a sweep and a document-wide selector query, work on every frame of
// a big page whose view ticks; since issue 33 it searches only the nodes a batch added, and
// sweeps (looks for widgets whose element left the page) only where a batch adds or keeps an
// element beside others, or in the frame after a mounted element lost its box.
//
// Four pages, each run in a fresh context and read over the same window: the busy page (5,000
// list items, one changing every animation frame) with and without the widget, and the same page
// standing still with and without it. The main thread's busy time comes from Chromium's own
// counters (Performance.getMetrics). The observer's cost is what the widget adds to the busy page
// beyond what it adds to the still one (its polls and countdown), spread over the frames.
import type { Browser } from '@playwright/test'
import { BUSY_PATH } from './pages.js'
import { median, shuffled } from './stats.js'

export type BusyCase = 'busy' | 'busy+embed' | 'busy+observer' | 'still' | 'still+embed'

export interface BusyResult {
  nodes: number
  windowMs: number
  /** Main-thread script time per second of the window, ms, per case and run. */
  script: Record<BusyCase, number[]>
  /** Main-thread task time (script, style, layout, paint) per second, ms. */
  tasks: Record<BusyCase, number[]>
  /** Animation frames (each one batch of changes) per second on the busy pages. */
  framesPerSecond: number[]
  /**
   * Script time per batch, ms, per busy case and run: a loaded machine draws fewer frames, and so
   * runs fewer batches a second, so costs are compared per batch. (Absent from results before issue 33.)
   */
  perBatch?: Partial<Record<BusyCase, number[]>>
  /** What the widget's observer callback itself took on the changing page, ms per second, per run (timed in the page; absent before issue 33). */
  callback?: number[]
  /** The same for an observer that does nothing: what the timing itself reads (two clock reads a batch, and the clock's coarseness). */
  emptyCallback?: number[]
}

const CASES: Record<BusyCase, string> = {
  busy: 'embed=0',
  'busy+embed': 'embed=1',
  // An observer of the same changes that does nothing, and no widget: what observing costs at all.
  'busy+observer': 'embed=0&observer=1',
  still: 'embed=0&mutate=0',
  'still+embed': 'embed=1&mutate=0',
}

export async function measureBusyPage(
  browser: Browser,
  { appUrl, runs, windowMs, nodes }: { appUrl: string; runs: number; windowMs: number; nodes: number },
): Promise<BusyResult> {
  const result: BusyResult = {
    nodes,
    windowMs,
    script: { busy: [], 'busy+embed': [], 'busy+observer': [], still: [], 'still+embed': [] },
    tasks: { busy: [], 'busy+embed': [], 'busy+observer': [], still: [], 'still+embed': [] },
    framesPerSecond: [],
    perBatch: { busy: [], 'busy+embed': [], 'busy+observer': [] },
    callback: [],
    emptyCallback: [],
  }
  for (const name of shuffled((Object.keys(CASES) as BusyCase[]).flatMap((name) => Array<BusyCase>(runs).fill(name)))) {
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      await cdp.send('Performance.enable')
      await page.goto(`${appUrl}${BUSY_PATH}?nodes=${nodes}&${CASES[name]}`)
      // The callbacks are timed in the page: with the coarse clock of a page that is not isolated the figure is noise.
      if (!(await page.evaluate(() => crossOriginIsolated))) throw new Error('The busy page is not cross-origin isolated: its clock would step by 100 µs.')
      if (name.endsWith('+embed')) await page.waitForFunction(() => (window as any).__bench.ready > 0, null, { polling: 100, timeout: 15_000 })
      // Past the load and the first code: the window sees the steady state.
      await page.waitForTimeout(1000)
      const read = async () => {
        const { metrics } = await cdp.send('Performance.getMetrics')
        const value = (metric: string) => metrics.find((m) => m.name === metric)?.value ?? NaN
        const [frames, callbackMs] = await page.evaluate(() => [(window as any).__frames ?? 0, (window as any).__observer?.ms ?? 0])
        return { script: value('ScriptDuration'), tasks: value('TaskDuration'), frames, callbackMs }
      }
      const before = await read()
      const start = performance.now()
      await page.waitForTimeout(windowMs)
      const after = await read()
      const seconds = (performance.now() - start) / 1000
      // The metrics are cumulative seconds of main-thread time.
      result.script[name].push(((after.script - before.script) * 1000) / seconds)
      result.tasks[name].push(((after.tasks - before.tasks) * 1000) / seconds)
      if (name === 'busy+embed') result.callback!.push((after.callbackMs - before.callbackMs) / seconds)
      if (name === 'busy+observer') result.emptyCallback!.push((after.callbackMs - before.callbackMs) / seconds)
      if (name.startsWith('busy')) {
        const batchesPerSecond = (after.frames - before.frames) / seconds
        result.framesPerSecond.push(batchesPerSecond)
        result.perBatch![name]!.push(((after.script - before.script) * 1000) / seconds / batchesPerSecond)
      }
    } finally {
      await context.close()
    }
  }
  return result
}

/**
 * The observer's cost, from a result: what the widget adds to a batch of the changing page beyond
 * what it adds to the still one (its poll and countdown, per second, spread over the batches), as
 * ms of script per batch and per second at the run's batch rate; of that, what an observer that
 * does nothing costs the same page (`floor`, ms/s); what the widget's callback itself took
 * (`callback`, ms/s), timed in the page; and what the same timing reads for a callback that does
 * nothing (`timing`, ms/s). The last three where the result has them.
 */
export function observerCost(busy: BusyResult): {
  perSecond: number
  perBatch: number
  batchesPerSecond: number
  floor?: number
  callback?: number
  timing?: number
} {
  const batchesPerSecond = median(busy.framesPerSecond)
  const still = (median(busy.script['still+embed']) - median(busy.script.still)) / batchesPerSecond
  const perRun = busy.perBatch
  // Results from before issue 33 have no costs per batch: theirs are per second, divided by the batch rate.
  const batch = (name: 'busy' | 'busy+embed' | 'busy+observer') =>
    perRun?.[name]?.length ? median(perRun[name]!) : median(busy.script[name] ?? []) / batchesPerSecond
  const perBatch = batch('busy+embed') - batch('busy') - still
  const floor = perRun?.['busy+observer']?.length ? (batch('busy+observer') - batch('busy')) * batchesPerSecond : undefined
  const callback = busy.callback?.length ? median(busy.callback) : undefined
  const timing = busy.emptyCallback?.length ? median(busy.emptyCallback) : undefined
  return { perSecond: perBatch * batchesPerSecond, perBatch, batchesPerSecond, floor, callback, timing }
}
