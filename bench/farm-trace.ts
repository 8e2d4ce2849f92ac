// What a traced shared-farm run (service-trace.ts, `npm run bench:farm -- --trace`) says about the
// sign knob's time inside the service, over the loaded window: each phase's p50 and p99, and the
// slowest knobs phase by phase, so that the tail is read off where it happens.
import { readFileSync } from 'node:fs'
import type { ServiceTrace, TracedRequest } from './service-trace.js'
import { percentile } from './stats.js'

export interface TraceSummary {
  signs: number
  /** p50 and p99 by phase, ms. */
  phases: Record<Phase, [number, number] | undefined>
  /** The slowest sign knobs, phase by phase, ms. */
  slowest: Partial<Record<Phase, number>>[]
  /** How long a job that takes no time waited for the thread pool: p50, p99, max, ms. */
  pool: [number, number, number]
  /** The service's event-loop delay p99 per second: median and max of those, ms. */
  lag: [number, number]
  threadPoolSize: string
  /** How often the store's refusal() held the event loop over a millisecond, and the longest, ms. */
  refusals: [number, number]
  /** Garbage collections that paused over 10 ms: how many, their total and the longest, ms. */
  gc: [number, number, number]
}

const PHASES = {
  /** Arrival (Node's request event) to jose's sign called: body, routing, the turns it waited for. */
  toSign: (r) => diff(r.arrived, r.signStart),
  /** jose's SignJWT.sign: HS256 through WebCrypto, on the thread pool. */
  jose: (r) => diff(r.signStart, r.signEnd),
  /**
   * The signature stored: the store's write issued to the backend's promise settling (a data
   * directory only): its commit, before the write resolved on its own flush; since, its commit flushed.
   */
  commit: (r) => diff(r.writeIssued, r.committed),
  /** The commit to env.flushed, which the answer waited for before the write resolved on its own flush. */
  flush: (r) => diff(r.committed, r.flushed),
  /** Arrival to the answer's end. */
  answer: (r) => diff(r.arrived, r.ended),
  /** Arrival to the held poll's answer's end. */
  wake: () => undefined,
} satisfies Record<string, (r: TracedRequest) => number | undefined>
type Phase = keyof typeof PHASES

const diff = (from: number | undefined, to: number | undefined) => (from === undefined || to === undefined ? undefined : to - from)

/** The trace `file`, over what happened from `from` to `to` (wall clock, ms): the loaded window. */
export function summarizeTrace(file: string, from: number, to: number): TraceSummary {
  const within = ([at]: [number, number]) => at >= from && at <= to
  const trace = JSON.parse(readFileSync(file, 'utf8')) as ServiceTrace
  // The held poll of a challenge is its first status request; the probe asks once more after signing.
  const heldEnds = new Map<string, number | undefined>()
  for (const r of trace.requests) if (r.kind === 'status' && r.id && !heldEnds.has(r.id)) heldEnds.set(r.id, r.ended)
  const signs = trace.requests.filter((r) => r.kind === 'sign' && r.at >= from && r.at <= to && r.ended !== undefined)
  const phaseOf = (r: TracedRequest, phase: Phase) => (phase === 'wake' ? diff(r.arrived, heldEnds.get(r.id!)) : PHASES[phase](r))
  const phases = Object.fromEntries(
    (Object.keys(PHASES) as Phase[]).map((phase) => {
      const values = signs.map((r) => phaseOf(r, phase)).filter((v): v is number => v !== undefined)
      return [phase, values.length ? [percentile(values, 50), percentile(values, 99)] : undefined]
    }),
  ) as TraceSummary['phases']
  const slowest = [...signs]
    .sort((a, b) => b.ended! - b.arrived - (a.ended! - a.arrived))
    .slice(0, 5)
    .map((r) => Object.fromEntries((Object.keys(PHASES) as Phase[]).map((phase) => [phase, phaseOf(r, phase)]).filter(([, v]) => v !== undefined)))
  const pool = trace.pool.filter(within).map(([, ms]) => ms)
  const lag = trace.lag.filter(within).map(([, ms]) => ms)
  return {
    signs: signs.length,
    phases,
    slowest,
    pool: pool.length ? [percentile(pool, 50), percentile(pool, 99), Math.max(...pool)] : [NaN, NaN, NaN],
    lag: lag.length ? [percentile(lag, 50), Math.max(...lag)] : [NaN, NaN],
    threadPoolSize: trace.threadPoolSize,
    gc: ((pauses) => [pauses.length, pauses.reduce((a, b) => a + b, 0), Math.max(0, ...pauses)] as [number, number, number])(
      trace.gc.filter(within).map(([, ms]) => ms),
    ),
    refusals: ((held) => [held.length, Math.max(0, ...held)] as [number, number])(trace.refusals.filter(within).map(([, ms]) => ms)),
  }
}

/** The summary in a few lines. */
export function traceLines(t: TraceSummary, load: string): string[] {
  const f = (v: number) => v.toFixed(1)
  return [
    `  traced in the service, ${t.signs} sign knobs ${load} (thread pool ${t.threadPoolSize}):`,
    `    ${(Object.keys(t.phases) as Phase[])
      .filter((p) => t.phases[p])
      .map((p) => `${p} p50 ${f(t.phases[p]![0])} p99 ${f(t.phases[p]![1])}`)
      .join('; ')} ms`,
    `    thread-pool wait of an empty job p50 ${f(t.pool[0])}, p99 ${f(t.pool[1])}, max ${f(t.pool[2])} ms; service event-loop delay p99 per second: median ${f(t.lag[0])}, max ${f(t.lag[1])} ms; the store's refusal() held the loop over 1 ms ${t.refusals[0]} times, at most ${f(t.refusals[1])} ms`,
    `    garbage collections over 10 ms: ${t.gc[0]}, ${f(t.gc[1])} ms in all, the longest ${f(t.gc[2])} ms`,
    ...t.slowest.map(
      (s) =>
        `    slow: ${Object.entries(s)
          .map(([p, v]) => `${p} ${f(v)}`)
          .join(', ')}`,
    ),
  ]
}
