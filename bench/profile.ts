// Where the script's evaluation spends its CPU: V8's sampling profiler over a first visit, the
// samples taken while the script's top-level code is on the stack, grouped by what was running:
// a browser API the script called (and from where), or a function of ours, named by its place in
// src/ through the source map. The profiler slows everything a little, so only the shares are
// reported, never absolute times; they say which start-up work is worth deferring.
import type { Browser } from '@playwright/test'
import type { SourceMapper } from './source-map.js'
import { painted } from './pages.js'

export interface ProfileShare {
  /** `fetch() from src/http.ts:27`, or `src/style.ts:8` for time in our own function starting there. */
  what: string
  /** Share of the evaluation's samples, 0..1. */
  share: number
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}

export async function profileEvaluation(browser: Browser, pageUrl: string, script: string, mapper: SourceMapper, runs: number): Promise<ProfileShare[]> {
  const totals = new Map<string, number>()
  let all = 0
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
      await cdp.send('Profiler.start')
      const visible = painted(page)
      await page.goto(pageUrl)
      await visible
      const { profile } = await cdp.send('Profiler.stop')
      const nodes = new Map<number, ProfileNode>(profile.nodes.map((node) => [node.id, node as ProfileNode]))
      const parents = new Map<number, number>()
      for (const node of nodes.values()) for (const child of node.children ?? []) parents.set(child, node.id)
      profile.samples!.forEach((id, i) => {
        const what = attribute(id, nodes, parents, script, mapper)
        if (!what) return
        const time = profile.timeDeltas![i + 1] ?? 0
        totals.set(what, (totals.get(what) ?? 0) + time)
        all += time
      })
    } finally {
      await context.close()
    }
  }
  return [...totals].map(([what, time]) => ({ what, share: time / all })).sort((a, b) => b.share - a.share)
}

/**
 * What a sample counts as, if it was taken during the script's evaluation: its stack reaches
 * down to the script's top-level code (line 0, column 0 or 1: the file's start or its IIFE).
 * Callbacks that run later have their own function at the bottom instead.
 */
function attribute(id: number, nodes: Map<number, ProfileNode>, parents: Map<number, number>, script: string, mapper: SourceMapper): string | undefined {
  const leaf = nodes.get(id)!.callFrame
  let evaluating = false
  let ours: string | undefined
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
    const frame = nodes.get(at)!.callFrame
    if (pathOf(frame.url) !== script) continue
    ours ??= place(frame, mapper)
    if (frame.lineNumber === 0 && frame.columnNumber <= 1) evaluating = true
  }
  if (!evaluating) return undefined
  // A frame without a URL is the browser's own code: the API the script called.
  return leaf.url ? ours : `${leaf.functionName || '(browser)'}() from ${ours}`
}

function place(frame: ProfileNode['callFrame'], mapper: SourceMapper): string {
  const original = mapper.lookup(frame.lineNumber, frame.columnNumber)
  return original ? `${original.source}:${original.line}` : `bundle column ${frame.columnNumber}`
}

function pathOf(url: string): string | undefined {
  try {
    return new URL(url).pathname
  } catch {
    return undefined
  }
}
