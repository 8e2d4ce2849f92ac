// The shared-farm phase (farm.ts) in words: its plan, the lines `npm run bench:farm` prints, its
// section of BENCHMARKS.md and its verdicts. Kept apart from report.ts, which it plugs into.
import type { FarmPlan, FarmResult, ProbeSamples } from './farm.js'
import { percentile } from './stats.js'

/** Issue 34: 5,000 held polls and the creations of 50 parallel workers. */
export const FARM_PLAN: Record<'full' | 'quick', FarmPlan> = {
  full: { held: 5000, workers: 50, quietSeconds: 5, loadSeconds: 20, probeEveryMs: 50 },
  quick: { held: 1000, workers: 50, quietSeconds: 2, loadSeconds: 5, probeEveryMs: 50 },
}

/** Issue 34: what a test waits on, knobs and status, answers within this at p99 under the farm's load. */
export const FARM_P99_GOAL_MS = 100

const ms = (values: number[], p: number) => (values.length ? `${percentile(values, p).toFixed(1)} ms` : '–')
const loadLine = (f: FarmResult) => `load average ${f.loadAverage.start} before, ${f.loadAverage.end} after`
const stateIn = (f: FarmResult) => (f.store === 'memory' ? 'in memory' : 'in a data directory')

/** What the runs found, a few lines each. */
export function farmLines(runs: FarmResult[]): string[] {
  return runs.flatMap((f) => {
    const c = f.creation
    const probes = (label: string, s: ProbeSamples) =>
      `${label} ${s.knob.length} probes: sign knob p50 ${ms(s.knob, 50)}, p99 ${ms(s.knob, 99)}; read knob p50 ${ms(s.readKnob, 50)}, p99 ${ms(s.readKnob, 99)}; status p50 ${ms(s.status, 50)}, p99 ${ms(s.status, 99)}; wake-up p50 ${ms(s.wakeUp, 50)}, p99 ${ms(s.wakeUp, 99)}`
    return [
      `state ${stateIn(f)}; ${f.held} polls held throughout; ${loadLine(f)}`,
      probes('  quiet, ', f.quiet),
      probes('  loaded,', f.loaded),
      `  creations with image data, ${f.workers} workers: ${Math.round(c.perSecond)}/s (${c.requests} in ${c.durationS.toFixed(1)} s), p50 ${c.p50.toFixed(1)} ms, p99 ${c.p99.toFixed(1)} ms, ${c.non2xx} not 201, ${c.errors} without answer; service CPU ${c.serviceCpu.toFixed(2)} cores, RSS ${f.serviceRssMiB} MiB`,
      `  the probes' own event-loop delay under load: p99 ${f.clientLagP99.toFixed(1)} ms`,
    ]
  })
}

/** The verdict of one run: under the load, both knobs and the status answer within the goal at p99. */
export function farmVerdict(f: FarmResult) {
  const p99 = { sign: percentile(f.loaded.knob, 99), read: percentile(f.loaded.readKnob, 99), status: percentile(f.loaded.status, 99) }
  return {
    measure: `Knob and status p99, ${f.held.toLocaleString('en')} held polls and ${f.workers} workers creating, state ${stateIn(f)}`,
    figure: `sign knob ${p99.sign.toFixed(1)} ms, read knob ${p99.read.toFixed(1)} ms, status ${p99.status.toFixed(1)} ms; ${Math.round(f.creation.perSecond)} creations/s sustained (${loadLine(f)})`,
    goal: `each < ${FARM_P99_GOAL_MS} ms; throughput reported`,
    verdict: f.loaded.knob.length > 0 && Object.values(p99).every((value) => value < FARM_P99_GOAL_MS) ? ('met' as const) : ('missed' as const),
  }
}

/** The BENCHMARKS.md section: a heading, the method, and two tables. */
export function farmSection(runs: FarmResult[]): string[] {
  const first = runs[0]!
  const cells = (values: number[]) => `${ms(values, 50)} | ${ms(values, 99)}`
  const row = (f: FarmResult, label: string, s: ProbeSamples) =>
    `| ${stateIn(f)} | ${label} | ${s.knob.length} | ${cells(s.knob)} | ${cells(s.readKnob)} | ${cells(s.status)} | ${cells(s.wakeUp)} |`
  return [
    '## 8. One mock shared by a CI farm',
    `Many test workers on one \`service-auth-mock\`: their login pages hold status polls, their tests create challenges as the embed does (with inline image data: two QR PNGs rendered per creation) and wait on knobs and status answers. The mock service alone in a child process, its state in memory (as a farm's shared mock is started, \`--in-memory\`), then in a data directory (the command's default); ${first.held.toLocaleString('en')} status polls held throughout. Probes run one after another, every ${first.probeEveryMs} ms: each signs one of the held challenges with the sign knob (which answers once the signature is stored) and times its answer and the held poll's wake-up (both from sending the knob), then a fresh status request of the signed challenge (answered at once) and a knob that stores nothing (\`GET /__knobs/config\`). First with nothing else going on, then while ${first.workers} clients (in a process of their own) create challenges in a closed loop, each sending its next creation when the last is answered. The machine's load average is beside each run: ${runs.map((f) => `${stateIn(f)}, ${loadLine(f)}`).join('; ')}; the probing process's own event loop was late by ${runs.map((f) => `${f.clientLagP99.toFixed(1)} ms`).join(' and ')} at p99 under the load, which is in every figure. \`npm run bench:farm\` runs this phase alone and prints it.`,
    [
      '| State | Probes | n | sign knob p50 | p99 | read knob p50 | p99 | status p50 | p99 | wake-up p50 | p99 |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.flatMap((f) => [row(f, 'nothing else going on', f.quiet), row(f, `${f.workers} workers creating`, f.loaded)]),
    ].join('\n'),
    [
      `| Creations with image data, ${first.workers} workers | per second | requests | seconds | latency p50 | p99 | not 201 | no answer | service CPU, cores | service RSS, MiB |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.map((f) => {
        const c = f.creation
        return `| state ${stateIn(f)} | ${Math.round(c.perSecond)} | ${c.requests.toLocaleString('en')} | ${c.durationS.toFixed(1)} | ${c.p50.toFixed(1)} ms | ${c.p99.toFixed(1)} ms | ${c.non2xx} | ${c.errors} | ${c.serviceCpu.toFixed(2)} | ${f.serviceRssMiB} |`
      }),
    ].join('\n'),
  ]
}
