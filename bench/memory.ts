// Measure 5: memory across expire-and-refresh cycles. One page keeps one widget through 200
// cycles: each time, the knob expires the code shown, the widget's next poll hears 410, and it
// creates and shows a fresh code. After forced garbage collection, the V8 heap, the DOM node
// count and the listener count are read every 10 cycles; cycle 10 is the reference (the first
// cycles warm caches up), and 200 is compared with it. At those two cycles a heap snapshot also
// splits the heap into the page's JavaScript objects, compiled code (which grows as functions
// get hot and are optimized, and stops), and the browser's own (native) objects.
//
// The widget polls at most once a second, so 200 real cycles would take over three minutes.
// The page runs on Playwright's fake clock instead, and the bench moves it a second ahead per
// cycle: the same code runs, the same requests reach the real service, only the waiting is
// skipped. Nothing in the page keeps a list that grows (pages.ts counts the events).
import type { Browser, CDPSession, Page } from '@playwright/test'
import type { Service } from '../e2e/service.js'
import { WIDGET_PATH } from './pages.js'

export interface MemorySample {
  cycle: number
  /** V8's used heap after a full collection, bytes (Runtime.getHeapUsage). */
  heapUsed: number
  /** DOM nodes alive in the renderer, attached or not (Performance.getMetrics `Nodes`). */
  nodes: number
  /** Elements in the page's document. */
  elements: number
  /** Event listeners alive (Performance.getMetrics `JSEventListeners`). */
  listeners: number
}

/** A heap snapshot's self sizes, bytes, in three groups. */
export interface HeapComposition {
  /** Objects, closures, arrays, strings, contexts: what a leak in the widget's code would grow. */
  javascript: number
  /** Compiled code, feedback and object shapes: V8's own, and it grows while functions warm up. */
  code: number
  /** The browser's objects reachable from the page (DOM, performance entries, console messages, DevTools' buffers). */
  native: number
  /** The native classes that grew most since the reference snapshot, bytes. */
  nativeGrowth?: { name: string; count: number; bytes: number }[]
}

export interface MemoryResult {
  cycles: number
  samples: MemorySample[]
  /** Repeated readings at the reference cycle, without any cycle between: the noise. */
  repeats: MemorySample[]
  composition: { reference: HeapComposition; last: HeapComposition }
  /** Layout shifts the refreshes caused (count, and the summed layout-shift score). */
  layoutShifts: { count: number; score: number }
  durationMs: number
}

export const REFERENCE_CYCLE = 10

export async function measureMemory(browser: Browser, { appUrl, knobs, cycles }: { appUrl: string; knobs: Service; cycles: number }): Promise<MemoryResult> {
  const context = await browser.newContext()
  const started = performance.now()
  try {
    const page = await context.newPage()
    await page.clock.install()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')
    await page.goto(appUrl + WIDGET_PATH)
    await readyCount(page, 1)
    const samples: MemorySample[] = []
    const repeats: MemorySample[] = []
    let reference: Snapshot | undefined
    let last: Snapshot | undefined
    for (let cycle = 1; cycle <= cycles; cycle++) {
      const challengeId = await page.evaluate(() => (window as any).__bench.lastId as string)
      await knobs.expireChallenge(challengeId)
      // Past the poll floor: the widget polls, hears 410 and shows a new code.
      await page.clock.fastForward(1000)
      await readyCount(page, cycle + 1)
      if (cycle % 10 === 0) samples.push(await sample(page, cdp, cycle))
      if (cycle === REFERENCE_CYCLE) {
        for (let i = 0; i < 4; i++) repeats.push(await sample(page, cdp, cycle))
        reference = await snapshot(cdp)
      }
      if (cycle === cycles) last = await snapshot(cdp)
    }
    const shifts = await page.evaluate(() => ({ count: (window as any).__bench.shifts as number, score: (window as any).__bench.shiftScore as number }))
    return {
      cycles,
      samples,
      repeats,
      composition: { reference: reference!.totals, last: { ...last!.totals, nativeGrowth: growth(reference!.native, last!.native) } },
      layoutShifts: shifts,
      durationMs: performance.now() - started,
    }
  } finally {
    await context.close()
  }
}

function readyCount(page: Page, count: number) {
  return page.waitForFunction((count) => (window as any).__bench.ready >= count, count, { polling: 10, timeout: 15_000 })
}

async function collectGarbage(cdp: CDPSession): Promise<void> {
  // Twice: a collection can leave garbage that only the next one frees (weak references, finalizers).
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
}

async function sample(page: Page, cdp: CDPSession, cycle: number): Promise<MemorySample> {
  await collectGarbage(cdp)
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  const { metrics } = await cdp.send('Performance.getMetrics')
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN
  return {
    cycle,
    heapUsed: usedSize,
    nodes: metric('Nodes'),
    elements: await page.evaluate(() => document.querySelectorAll('*').length),
    listeners: metric('JSEventListeners'),
  }
}

interface Snapshot {
  totals: HeapComposition
  /** Native classes: count and bytes. */
  native: Map<string, [number, number]>
}

// Snapshot node types, by group. Anything else (hidden, synthetic) is V8's bookkeeping and left out.
const JAVASCRIPT = new Set(['object', 'closure', 'array', 'string', 'concatenated string', 'sliced string', 'regexp', 'number', 'symbol', 'bigint'])
const CODE = new Set(['code', 'object shape'])

async function snapshot(cdp: CDPSession): Promise<Snapshot> {
  await collectGarbage(cdp)
  const chunks: string[] = []
  const collect = ({ chunk }: { chunk: string }) => chunks.push(chunk)
  cdp.on('HeapProfiler.addHeapSnapshotChunk', collect)
  try {
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', collect)
  }
  const {
    snapshot: { meta },
    nodes,
    strings,
  } = JSON.parse(chunks.join('')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }
    nodes: number[]
    strings: string[]
  }
  const width = meta.node_fields.length
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => meta.node_fields.indexOf(field)) as [number, number, number]
  const totals: HeapComposition = { javascript: 0, code: 0, native: 0 }
  const native = new Map<string, [number, number]>()
  for (let i = 0; i < nodes.length; i += width) {
    const type = meta.node_types[0][nodes[i + typeAt]!]!
    const size = nodes[i + sizeAt]!
    if (JAVASCRIPT.has(type)) totals.javascript += size
    else if (CODE.has(type)) totals.code += size
    else if (type === 'native') {
      totals.native += size
      // Template arguments make Blink's class names a paragraph long; the class says enough.
      const name = strings[nodes[i + nameAt]!]!.replace(/<.*$/s, '<…>')
      const entry = native.get(name) ?? [0, 0]
      entry[0]++
      entry[1] += size
      native.set(name, entry)
    }
  }
  return { totals, native }
}

function growth(before: Map<string, [number, number]>, after: Map<string, [number, number]>): HeapComposition['nativeGrowth'] {
  return [...after]
    .map(([name, [count, bytes]]) => ({ name, count: count - (before.get(name)?.[0] ?? 0), bytes: bytes - (before.get(name)?.[1] ?? 0) }))
    .filter(({ bytes }) => bytes > 0)
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 6)
}
