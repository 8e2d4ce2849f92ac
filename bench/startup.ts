// Measure 2: start-up. Each run is a first visit: a fresh browser context (no cache, a cold
// renderer), the bench page, and the time from the script starting to the QR code painted.
// Main-thread cost comes from separate runs under a Chromium trace, so the tracing overhead
// never touches the timed runs. The naive baseline runs in the same loop, shuffled in.
import type { Browser, Page } from '@playwright/test'
import type { Floor } from './floor.js'
import { BASELINE_PATH, BUNDLE_PATH, painted, WIDGET_PATH } from './pages.js'
import type { Probe } from './probe.js'
import { profileEvaluation, type ProfileShare } from './profile.js'
import type { SourceMapper } from './source-map.js'
import { shuffled } from './stats.js'

export type StartupVariant =
  | 'widget-inline'
  | 'widget-preconnect'
  | 'widget-url'
  | 'baseline'
  | 'baseline-words'
  | 'baseline-markup'
  | 'widget-text'
  | 'baseline-text'

export const VARIANTS: Record<StartupVariant, { page: string; script: string; label: string }> = {
  'widget-inline': { page: `${WIDGET_PATH}?timing=1`, script: BUNDLE_PATH, label: 'widget, inline image data' },
  'widget-preconnect': { page: `${WIDGET_PATH}?timing=1&preconnect=1`, script: BUNDLE_PATH, label: 'widget, inline image data, preconnect' },
  'widget-url': { page: `${WIDGET_PATH}?timing=1&image-data=false`, script: BUNDLE_PATH, label: 'widget, image URL' },
  baseline: { page: `${BASELINE_PATH}?timing=1`, script: `${BASELINE_PATH}.js`, label: 'naive baseline (inline image data)' },
  // Reported, not judged: the baseline with the widget's words around its code (issue 33, item 9).
  'baseline-words': { page: `${BASELINE_PATH}?timing=1&words=1`, script: `${BASELINE_PATH}.js`, label: 'naive baseline with a status line and the time left' },
  // Reported too: the bare baseline's image in the widget's markup, built while its request is
  // out, so that the widget's own script is all that sets the two apart, and the baseline's
  // difference from the bare one is what the markup costs.
  'baseline-markup': { page: `${BASELINE_PATH}?timing=1&markup=1`, script: `${BASELINE_PATH}.js`, label: "naive baseline in the widget's markup" },
  // Reported too: both on a page with a heading and a line of text before them, as a login page
  // has. On the bare page the widget's words are the renderer's first text, whose first layout
  // (the font's, 3 to 14 ms in traces) the bare baseline, an image alone, never pays.
  'widget-text': { page: `${WIDGET_PATH}?timing=1&text=1`, script: BUNDLE_PATH, label: 'widget, inline image data, on a page with text' },
  'baseline-text': { page: `${BASELINE_PATH}?timing=1&text=1`, script: `${BASELINE_PATH}.js`, label: 'naive baseline, on a page with text' },
}

export interface StartupResult {
  /** Script start to QR painted, ms, per variant. */
  toVisible: Record<StartupVariant, number[]>
  /** Where that time goes, ms, per variant: script start to the challenge request... */
  untilRequest: Record<StartupVariant, number[]>
  /** ...the challenge request, as the page timed it (its CORS preflight included)... */
  request: Record<StartupVariant, number[]>
  /** ...of which the service spent this creating the challenge and rendering its PNGs... */
  serviceTime: Record<StartupVariant, number[]>
  /** ...and from its answer to the paint (reading it, the image, decoding, painting). */
  afterResponse: Record<StartupVariant, number[]>
  /**
   * The script's evaluation on the main thread (compile, run, and the synchronous mount), ms:
   * wall time, and the thread's CPU time within it. They differ when the two cores are busy
   * elsewhere (the browser, the network service, the demo) and the main thread waits for one.
   */
  evaluate: Record<'widget' | 'baseline', { wall: number[]; cpu: number[] }>
  /** Runs in which the parser reached the script before its bytes had arrived (start = responseEnd then). */
  waitedForBytes: number
  /** The widget's evaluation by what ran (see profile.ts). */
  profile: ProfileShare[]
}

interface Options {
  appUrl: string
  floor: Floor
  probe: Probe
  /** The bundle's source map, to name the profile's places in src/. */
  mapper: SourceMapper
  /** Timed runs per variant. */
  runs: number
  /** Traced runs per script, and profiled runs of the widget. */
  tracedRuns: number
}

export async function measureStartup(browser: Browser, { appUrl, floor, probe, mapper, runs, tracedRuns }: Options): Promise<StartupResult> {
  const perVariant = (): Record<StartupVariant, number[]> => ({
    'widget-inline': [],
    'widget-preconnect': [],
    'widget-url': [],
    baseline: [],
    'baseline-words': [],
    'baseline-markup': [],
    'widget-text': [],
    'baseline-text': [],
  })
  const result: StartupResult = {
    toVisible: perVariant(),
    untilRequest: perVariant(),
    request: perVariant(),
    serviceTime: perVariant(),
    afterResponse: perVariant(),
    evaluate: { widget: { wall: [], cpu: [] }, baseline: { wall: [], cpu: [] } },
    waitedForBytes: 0,
    profile: [],
  }
  const isCreation = (seen: { method: string; url: string }) => seen.method === 'POST' && seen.url === '/v1/entity/challenges'
  const order = shuffled((Object.keys(VARIANTS) as StartupVariant[]).flatMap((variant) => Array<StartupVariant>(runs).fill(variant)))
  for (const variant of order) {
    await inFreshPage(browser, async (page) => {
      const { page: path, script } = VARIANTS[variant]
      const arrived = probe.nextRequest(isCreation, 15_000)
      const answered = probe.nextResponse(isCreation, 15_000)
      const visible = painted(page)
      await page.goto(appUrl + path)
      await visible
      const times = await page.evaluate(readTimes, script)
      result.toVisible[variant].push(times.visible - times.start)
      result.untilRequest[variant].push(times.requestStart - times.start)
      result.request[variant].push(times.responseEnd - times.requestStart)
      result.serviceTime[variant].push((await answered).at - (await arrived).at)
      result.afterResponse[variant].push(times.visible - times.responseEnd)
      if (times.waitedForBytes) result.waitedForBytes++
      // Interleaved with the runs, so the floor and the figures share the machine's mood.
      await floor.sample()
    })
  }
  const traced = shuffled([...Array<'widget'>(tracedRuns).fill('widget'), ...Array<'baseline'>(tracedRuns).fill('baseline')])
  for (const which of traced) {
    const { page: path, script } = VARIANTS[which === 'widget' ? 'widget-inline' : 'baseline']
    await inFreshPage(browser, async (page) => {
      await browser.startTracing(page, { categories: ['devtools.timeline', 'v8.execute'] })
      try {
        const visible = painted(page)
        await page.goto(appUrl + path)
        await visible
      } finally {
        const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }
        const { wall, cpu } = evaluationTime(trace.traceEvents, script)
        result.evaluate[which].wall.push(wall)
        result.evaluate[which].cpu.push(cpu)
      }
    })
  }
  result.profile = await profileEvaluation(browser, appUrl + VARIANTS['widget-inline'].page, BUNDLE_PATH, mapper, tracedRuns)
  return result
}

async function inFreshPage(browser: Browser, run: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext()
  try {
    await run(await context.newPage())
  } finally {
    await context.close()
  }
}

/**
 * In the page: the script's start (the later of the mark before its tag and its bytes' arrival),
 * the challenge request (from the fetch's start, preflight included, to its last byte), and the paint.
 */
function readTimes(script: string) {
  const mark = performance.getEntriesByName('bench:script-start')[0]!.startTime
  const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
  const scriptEnd = entries.find((e) => new URL(e.name).pathname === script)?.responseEnd ?? 0
  const creation = entries.find((e) => e.initiatorType === 'fetch' && new URL(e.name).pathname === '/v1/entity/challenges')!
  return {
    start: Math.max(mark, scriptEnd),
    requestStart: creation.startTime,
    responseEnd: creation.responseEnd,
    visible: (window as any).__bench.visible as number,
    waitedForBytes: scriptEnd > mark,
  }
}

interface TraceEvent {
  name: string
  ph: string
  /** Wall time, µs. */
  dur?: number
  /** Thread (CPU) time, µs. */
  tdur?: number
  args?: { data?: { url?: string } }
}

/** The EvaluateScript slice of the script (compile, run, and whatever it does synchronously), ms. */
export function evaluationTime(events: TraceEvent[], script: string): { wall: number; cpu: number } {
  const slice = events.find((e) => e.name === 'EvaluateScript' && e.ph === 'X' && pathOf(e.args?.data?.url) === script)
  if (!slice?.dur) throw new Error(`The trace has no EvaluateScript for ${script}.`)
  return { wall: slice.dur / 1000, cpu: (slice.tdur ?? NaN) / 1000 }
}

const pathOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).pathname : undefined
  } catch {
    return undefined
  }
}
