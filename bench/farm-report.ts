// The shared-farm phase (farm.ts) in words: its plan, the lines `npm run bench:farm` prints, its
// section of BENCHMARKS.md and its verdict. Kept apart from report.ts, which it plugs into.
import type { FarmPlan, FarmResult, ProbeSamples } from './farm.js'
import { percentile } from './stats.js'

/** Issue 34: 5,000 held polls and the creations of 50 parallel workers. */
export const FARM_PLAN: Record<'full' | 'quick', FarmPlan> = {
  full: { held: 5000, workers: 50, quietSeconds: 5, loadSeconds: 20, probeEveryMs: 50 },
  quick: { held: 1000, workers: 50, quietSeconds: 2, loadSeconds: 5, probeEveryMs: 50 },
}

/** Issue 34: what a test waits on, knob and status, answers within this at p99 under the farm's load. */
export const FARM_P99_GOAL_MS = 100

const ms = (values: number[], p: number) => (values.length ? `${percentile(values, p).toFixed(1)} ms` : '–')
const max = (values: number[]) => (values.length ? `${Math.max(...values).toFixed(1)} ms` : '–')
const loadLine = (f: FarmResult) => `load average ${f.loadAverage.start} before, ${f.loadAverage.end} after`

/** What one run found, a line per figure. */
export function farmLines(f: FarmResult): string[] {
  const c = f.creation
  const probes = (label: string, s: ProbeSamples) =>
    `${label} ${s.knob.length} probes: knob p50 ${ms(s.knob, 50)}, p99 ${ms(s.knob, 99)}; status p50 ${ms(s.status, 50)}, p99 ${ms(s.status, 99)}; wake-up p50 ${ms(s.wakeUp, 50)}, p99 ${ms(s.wakeUp, 99)}`
  return [
    `state: ${f.store}; ${f.held} polls held throughout; ${loadLine(f)}`,
    probes('quiet, ', f.quiet),
    probes('loaded,', f.loaded),
    `creations with image data, ${f.workers} workers: ${Math.round(c.perSecond)}/s (${c.requests} in ${c.durationS.toFixed(1)} s), p50 ${c.p50.toFixed(1)} ms, p99 ${c.p99.toFixed(1)} ms, ${c.non2xx} not 201, ${c.errors} without answer; service CPU ${c.serviceCpu.toFixed(2)} cores, RSS ${f.serviceRssMiB} MiB`,
    `the bench's own event-loop delay under load: p99 ${f.clientLagP99.toFixed(1)} ms`,
  ]
}

/** The verdict: under the load, knob and status answer within the goal at p99. */
export function farmVerdict(f: FarmResult) {
  const knob = percentile(f.loaded.knob, 99)
  const status = percentile(f.loaded.status, 99)
  return {
    measure: `Knob and status p99 with ${f.held.toLocaleString('en')} held polls and ${f.workers} workers creating`,
    figure: `knob ${knob.toFixed(1)} ms, status ${status.toFixed(1)} ms; ${Math.round(f.creation.perSecond)} creations/s sustained (${loadLine(f)})`,
    goal: `both < ${FARM_P99_GOAL_MS} ms; throughput reported`,
    verdict: f.loaded.knob.length > 0 && knob < FARM_P99_GOAL_MS && status < FARM_P99_GOAL_MS ? ('met' as const) : ('missed' as const),
  }
}

/** The BENCHMARKS.md section: a heading, the method, and two tables. */
export function farmSection(f: FarmResult): string[] {
  const row = (label: string, s: ProbeSamples) =>
    `| ${label} | ${s.knob.length} | ${ms(s.knob, 50)} | ${ms(s.knob, 99)} | ${max(s.knob)} | ${ms(s.status, 50)} | ${ms(s.status, 99)} | ${max(s.status)} | ${ms(s.wakeUp, 50)} | ${ms(s.wakeUp, 99)} |`
  const c = f.creation
  return [
    '## 8. One mock shared by a CI farm',
    `Many test workers on one \`service-auth-mock\`: their login pages hold status polls, their tests create challenges as the embed does (with inline image data: two QR PNGs rendered per creation) and wait on knobs and status answers. The mock service alone in a child process, its state in a data directory; ${f.held.toLocaleString('en')} status polls held throughout. Probes run one after another, every ${f.probeEveryMs} ms: each signs one of the held challenges with the sign knob and times the knob's answer, the held poll's wake-up (from sending the knob) and then a fresh status request of the signed challenge, which is answered at once. First with nothing else going on, then while ${f.workers} clients create challenges in a closed loop, each sending its next creation when the last is answered. The bench's own event loop was late by ${f.clientLagP99.toFixed(1)} ms at p99 meanwhile, which is in every figure. Machine: ${loadLine(f)}. \`npm run bench:farm\` runs this phase alone and prints it.`,
    [
      '| Probes | n | knob p50 | knob p99 | knob max | status p50 | status p99 | status max | wake-up p50 | wake-up p99 |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      row('nothing else going on', f.quiet),
      row(`${f.workers} workers creating`, f.loaded),
    ].join('\n'),
    [
      '| Creations with image data | per second | requests | seconds | latency p50 | p99 | not 201 | no answer | service CPU, cores | service RSS, MiB |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${f.workers} workers, closed loop | ${Math.round(c.perSecond)} | ${c.requests.toLocaleString('en')} | ${c.durationS.toFixed(1)} | ${c.p50.toFixed(1)} ms | ${c.p99.toFixed(1)} ms | ${c.non2xx} | ${c.errors} | ${c.serviceCpu.toFixed(2)} | ${f.serviceRssMiB} |`,
    ].join('\n'),
  ]
}
