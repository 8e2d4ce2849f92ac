// The goals of issues 5 and 14, each judged against one run. A goal's reading is spelled out where the
// issue leaves room (what "within 3 round trips" or "beyond noise" means here).
import { abuseVerdict } from './abuse-report.js'
import { observerCost } from './busy-page.js'
import { keysVerdict } from './keys.js'
import { farmVerdict } from './farm-report.js'
import { REFERENCE_CYCLE } from './memory.js'
import type { BenchResults } from './results.js'
import type { StartupVariant } from './startup.js'
import { bootstrapInterval, median, percentile } from './stats.js'

export type Verdict = 'met' | 'missed' | 'reported'

export interface Judgement {
  measure: string
  figure: string
  goal: string
  verdict: Verdict
}

/** The target the capacity goal names. */
export const HELD_GOAL = 5000
export const WAKE_UP_P99_GOAL_MS = 20
/** Round trips above the floor the widget's sign-to-navigation median may take. */
export const SIGN_GOAL_ROUND_TRIPS = 3
/** Issue 14: the widget's start-up median may be at most this many floors. */
export const STARTUP_GOAL_FLOORS = 4
/**
 * Issue 14: a refreshed code's first poll must not wait for the old code's 1 s floor, which would
 * hold it back about 950 ms in the bench's refreshes. Half the floor tells the two apart on a busy machine.
 */
export const FIRST_POLL_GOAL_MS = 500

/** Issue 33: the CDN build's MutationObserver may cost the bench's busy page this much script, ms per second. */
export const OBSERVER_GOAL_MS_PER_S = 0.5

/** The smallest object V8 allocates is 16 bytes: leaking anything per refresh grows at least this much per cycle. */
export const SMALLEST_OBJECT_BYTES = 16

const ms = (value: number) => `${value.toFixed(1)} ms`
/** A margin, its sign always written: "+2.5 ms", "−1.8 ms". */
const signedMs = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(1)} ms`
const verdict = (ok: boolean): Verdict => (ok ? 'met' : 'missed')

export function judge(results: BenchResults): Judgement[] {
  const { size, signToNavigation, load, memory, capacity } = results
  const out: Judgement[] = []

  out.push({
    measure: 'IIFE size, gzip',
    figure: `${size.iife.gzip} B`,
    goal: `≤ ${size.iife.budget} B (budget), aim ${size.iife.aim} B`,
    verdict: verdict(size.iife.gzip <= size.iife.budget),
  })
  if (size.iife.gzip <= size.iife.budget) {
    out.push({
      measure: 'IIFE size, gzip, against the aim',
      figure: `${size.iife.gzip} B`,
      goal: `≤ ${size.iife.aim} B`,
      verdict: verdict(size.iife.gzip <= size.iife.aim),
    })
  }

  const floor = median(results.floor.signIn)
  const widget = signToNavigation.runs.filter((r) => r.who === 'widget').map((r) => r.toNavigation)
  const widgetP50 = median(widget)
  // "Within 3 round trips of the floor": at most 3 round trips more than the floor, which is itself one.
  out.push({
    measure: 'Sign to navigation, widget p50',
    figure: `${ms(widgetP50)}: the floor (${ms(floor)}) + ${((widgetP50 - floor) / floor).toFixed(1)} round trips`,
    goal: `within ${SIGN_GOAL_ROUND_TRIPS} round trips of the floor`,
    verdict: verdict(widgetP50 - floor <= SIGN_GOAL_ROUND_TRIPS * floor),
  })

  const perMinute = load.perMinute
  // One request more or less is where the window happened to cut the polling.
  const slack = 60_000 / load.windowMs
  out.push({
    measure: 'Status requests/min, idle, visible (1 s hold)',
    figure: perMinute.held['widget-visible'].toFixed(0),
    goal: 'about 60 (spec); 54 to 66 taken as met',
    verdict: verdict(Math.abs(perMinute.held['widget-visible'] - 60) <= 6),
  })
  out.push({
    measure: 'Status requests/min, idle, hidden (1 s hold)',
    figure: perMinute.held['widget-hidden'].toFixed(0),
    goal: '0',
    verdict: verdict(perMinute.held['widget-hidden'] === 0),
  })
  out.push({
    measure: 'Status requests/min, idle, visible, 204 at once',
    figure: perMinute.immediate['widget-visible'].toFixed(0),
    goal: '≤ 60',
    verdict: verdict(perMinute.immediate['widget-visible'] <= 60 + slack),
  })
  out.push({
    measure: 'Status requests/min, idle, hidden, 204 at once',
    figure: perMinute.immediate['widget-hidden'].toFixed(0),
    goal: '0',
    verdict: verdict(perMinute.immediate['widget-hidden'] === 0),
  })

  const { reference, last } = memory.composition
  const jsGrowth = last.javascript - reference.javascript
  const cycles = memory.cycles - REFERENCE_CYCLE
  const allowance = Math.max(memoryNoise(results), cycles * SMALLEST_OBJECT_BYTES)
  out.push({
    measure: `JS objects, cycle ${memory.cycles} vs ${REFERENCE_CYCLE}`,
    figure: `${signed(jsGrowth)} B`,
    goal: `no growth beyond noise (< ${allowance} B: one 16-byte object per cycle)`,
    verdict: verdict(jsGrowth < allowance),
  })
  // The document's elements are counted exactly. The renderer's node count also holds nodes it
  // has not collected yet, which come and go by one or two between readings: its first five
  // readings are compared with its last five, by their medians. A leak per refresh would add
  // hundreds. Listeners are compared the same way.
  const first = memory.samples.find((s) => s.cycle === REFERENCE_CYCLE)!
  const end = memory.samples.at(-1)!
  const early = memory.samples.slice(0, 5)
  const late = memory.samples.slice(-5)
  const nodes = [median(early.map((s) => s.nodes)), median(late.map((s) => s.nodes))] as const
  const listeners = [median(early.map((s) => s.listeners)), median(late.map((s) => s.listeners))] as const
  out.push({
    measure: `DOM and listeners, cycle ${end.cycle} vs ${REFERENCE_CYCLE}`,
    figure: `elements ${first.elements} → ${end.elements}; renderer nodes ${nodes[0]} → ${nodes[1]}, listeners ${listeners[0]} → ${listeners[1]} (medians of the first and last five readings)`,
    goal: 'no growth',
    verdict: verdict(end.elements <= first.elements && nodes[1] <= nodes[0] && listeners[1] <= listeners[0]),
  })

  // Issue 14, "the first code sooner": goals 1 to 3, in this run, beside the naive baseline.
  const { startup, refresh } = results
  const startupFloor = median(results.floor.startup)
  const widgetStart = median(startup.toVisible['widget-inline'])
  out.push({
    measure: 'CORS preflights per refresh',
    figure: `${(refresh.refreshOptions / refresh.refreshes).toFixed(2)} (${refresh.refreshOptions} OPTIONS, ${refresh.refreshPosts} POSTs for ${refresh.refreshes} refreshes; ${refresh.firstOptions} for the page's first code)`,
    goal: '0: after the first code of a page, a refresh is one request',
    verdict: verdict(refresh.refreshOptions === 0 && refresh.refreshPosts === refresh.refreshes),
  })
  // Issue 33, item 9: "one task" is the widget's script start → request beyond the baseline's, in
  // this run: the task its first request waits for (so that a mount destroyed in its own task,
  // React's StrictMode, sends nothing), which the baseline does not have. Each comparison below
  // measures its one task against its own baseline alike.
  // The figure also says by how much, with a 95 % bootstrap interval of that margin: with 60
  // first visits a variant and an IQR of about 10 ms, a median moves by a millisecond or two
  // between runs of the same build, and the interval shows when a verdict could go either way.
  const beside = (widget: StartupVariant, baseline: StartupVariant) => {
    const samples = [startup.toVisible[widget], startup.toVisible[baseline], startup.untilRequest[widget], startup.untilRequest[baseline]].map(
      (values) => values ?? [],
    )
    const margin = ([start, base, startRequest, baseRequest]: readonly (readonly number[])[]) =>
      median(start!) - median(base!) - Math.max(0, median(startRequest!) - median(baseRequest!))
    const [start, base] = [median(samples[0]!), median(samples[1]!)]
    const over = margin(samples)
    const task = start - base - over
    const [low, high] = bootstrapInterval(samples, margin)
    return {
      within: over <= 0,
      figure: `${ms(start)} vs ${ms(base)} + one task, ${ms(task)} (margin ${signedMs(over)}, 95 % interval ${signedMs(low)} to ${signedMs(high)})`,
    }
  }
  const bare = beside('widget-inline', 'baseline')
  out.push({
    measure: 'Script start → QR painted, widget median vs baseline',
    figure: bare.figure,
    goal: "≤ the naive baseline's median plus one task",
    verdict: verdict(bare.within),
  })
  const reported = (measure: string, goal: string, { figure, within }: ReturnType<typeof beside>): Judgement => ({
    measure,
    figure: `${figure}: ${within ? 'within' : 'over'}`,
    goal,
    verdict: 'reported',
  })
  out.push(
    // The target proposed for item 9: the same, against a baseline that says what the widget says
    // around its code (a status line, the time left), as any accessible embed must. Not judged
    // until it is agreed.
    reported(
      'Script start → QR painted, widget median vs the baseline with words (proposed)',
      '≤ the median of a baseline with a status line and the time left, plus one task',
      beside('widget-inline', 'baseline-words'),
    ),
    // Against the bare baseline's image in the widget's markup (which keeps the live region in
    // place for the first code), what is left of the gap is the widget's own script: reading the
    // answer within its size limit, checking it, its state and events.
    reported(
      "Script start → QR painted, widget median vs the baseline in the widget's markup",
      "≤ the median of the baseline in the widget's markup, plus one task",
      beside('widget-inline', 'baseline-markup'),
    ),
    // The same comparison on a page with a heading and a line of text above both, as a login page
    // has, where the page's own text pays the renderer's first text layout.
    reported(
      'Script start → QR painted on a page with text, widget median vs baseline',
      "≤ the naive baseline's median plus one task, both below a heading and a line of text",
      beside('widget-text', 'baseline-text'),
    ),
  )
  out.push({
    measure: 'Script start → QR painted, widget median ÷ floor',
    figure: `${(widgetStart / startupFloor).toFixed(1)} (floor ${ms(startupFloor)})`,
    goal: `≤ ${STARTUP_GOAL_FLOORS}`,
    verdict: verdict(widgetStart <= STARTUP_GOAL_FLOORS * startupFloor),
  })
  out.push({
    measure: "A refreshed code's first poll, after its challenge is answered",
    figure: `median ${ms(median(refresh.firstPollDelay))}, max ${ms(Math.max(...refresh.firstPollDelay))}`,
    goal: `no wait for the old code's 1 s floor: max < ${FIRST_POLL_GOAL_MS} ms`,
    verdict: verdict(refresh.firstPollDelay.length > 0 && Math.max(...refresh.firstPollDelay) < FIRST_POLL_GOAL_MS),
  })

  // Judged on the callback's own time, timed in the page: the difference of two pages' totals
  // holds it too, but also what delivering the records costs the browser whatever the callback
  // does, and a busy machine's noise several times the goal (BENCHMARKS.md has both).
  // Less what the same timing reads for a callback that does nothing (its clock reads, and the clock's coarseness).
  const observer = observerCost(results.busyPage)
  const work = observer.callback === undefined ? observer.perSecond : observer.callback - (observer.timing ?? 0)
  out.push({
    measure: "The CDN build's MutationObserver work on a page of 5,000 items changing every frame",
    figure: `${work.toFixed(3)} ms of script/s${observer.callback === undefined ? '' : ` (timed: ${observer.callback.toFixed(3)} ms/s, an empty callback ${observer.timing?.toFixed(3)}; all the widget adds: ${observer.perSecond.toFixed(2)} ms/s)`}`,
    goal: `≤ ${OBSERVER_GOAL_MS_PER_S} ms/s`,
    verdict: verdict(work <= OBSERVER_GOAL_MS_PER_S),
  })

  const atGoal = capacity.held.filter((h) => h.held >= HELD_GOAL).sort((a, b) => a.held - b.held)[0]
  out.push({
    measure: `Held long polls, p99 wake-up`,
    figure: atGoal ? `${atGoal.held} held, p99 ${ms(percentile(atGoal.wakeUps, 99))}` : 'not measured at the goal',
    goal: `${HELD_GOAL} held, p99 < ${WAKE_UP_P99_GOAL_MS} ms`,
    verdict: verdict(!!atGoal && percentile(atGoal.wakeUps, 99) < WAKE_UP_P99_GOAL_MS),
  })
  if (results.abuse) out.push(abuseVerdict(results.abuse))
  if (results.keys) out.push(keysVerdict(results.keys))
  for (const farm of results.farm ?? []) out.push(farmVerdict(farm))
  return out
}

/** The spread of repeated readings of the JS heap at the reference cycle, bytes. */
export function memoryNoise({ memory }: BenchResults): number {
  const heaps = memory.repeats.map((r) => r.heapUsed)
  return heaps.length ? Math.max(...heaps) - Math.min(...heaps) : 0
}

export const signed = (value: number) => (value > 0 ? '+' : value < 0 ? '−' : '±') + Math.abs(value).toLocaleString('en')
