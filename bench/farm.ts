// Measure 8: one mock shared by a CI farm (issue 34). Many test workers point at one
// `service-auth-mock`: each of their login pages holds a status poll, and each test creates
// challenges as the embed does, with inline image data, so the service renders two QR PNGs per
// creation. What a test waits on meanwhile is a knob (the phone signs) and a status answer.
//
// The mock service runs alone in a child process (capacity.ts), and so does the creation load
// (farm-creations.ts), whose clients would otherwise delay the probes' reading of their answers.
// The service keeps its state in memory (as a farm's shared mock is started, `service-auth-mock
// --in-memory`; see e2e/shared-mock/), then in a data directory (the command's default). First
// `held` challenges each get a status poll, all held at once (the hold is longer than the phase).
// Then probes run one after another, every `probeEveryMs`: each signs one of the held challenges
// with the sign knob and times the knob's answer and the held poll's answer (its wake-up), then a
// fresh status request of the now signed challenge, answered at once, and a knob that stores
// nothing (the sign knob waits for its write). The probes run for `quietSeconds` without
// creations, for comparison, then for `loadSeconds` under each load in turn (farm-creations.ts):
// the farm's own, creations arriving at random at the rate `workers` test workers make (an open
// loop: plan.workerCreationsPerSecond each, which farm-rate.ts measures with a real Playwright
// worker); the same at `marginFactor` times that rate; and a closed loop of `workers` clients,
// each sending its next creation when the last is answered: not what a farm asks, but the most
// the mock can be asked, whose creations answered per second are the throughput it sustains.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { generateCredentials } from '@service-auth/mock/service'
import { openHeldPolls, provisionPhone, residentMiB, send, signChallenge, withServiceProcess, type CreationResult, type StoreKind } from './capacity.js'
import type { FarmCreationSettings, FarmLoad } from './farm-creations.js'
import { summarizeTrace, type TraceSummary } from './farm-trace.js'

/** Per probe, ms. */
export interface ProbeSamples {
  /** The sign knob, sent to answered: it answers once the signature is on disk. */
  knob: number[]
  /** A knob that reads the settings and writes nothing (GET /__knobs/config), sent to answered. */
  readKnob: number[]
  /** The sign knob sent to the held status poll's answer arriving. */
  wakeUp: number[]
  /** A status request of the signed challenge, answered at once: sent to answered. */
  status: number[]
}

export interface FarmResult {
  store: StoreKind
  held: number
  /** Parallel creation clients. */
  workers: number
  probeEveryMs: number
  quiet: ProbeSamples
  /** Under the closed loop (the name is older than the open loop; results.json keeps it). */
  loaded: ProbeSamples
  /** The closed loop of creations with inline image data, over the loaded window. */
  creation: CreationResult
  /**
   * The farm's own load: creations arriving at random, at the rate `workers` test workers make
   * (plan.workerCreationsPerSecond each, farm-rate.ts), then at `marginFactor` times it. Absent
   * from results of runs before the open loop.
   */
  open?: OpenLoad[]
  /** The service's resident memory at the end of the phase (after the closed loop), MiB. */
  serviceRssMiB: number
  /** 1-minute load average before the phase started and when it ended: another job on the machine shows here. */
  loadAverage: { start: number; end: number }
  /** The probing process's own event-loop delay p99 under the closed loop, ms: what the client adds to every figure. */
  clientLagP99: number
  /** Where the sign knob's time went inside the service, when traced (`--trace`): under the farm's rate, and under the closed loop. */
  trace?: { open: TraceSummary; closed: TraceSummary }
}

/** Probes under creations arriving at a set rate (an open loop), and those creations. */
export interface OpenLoad {
  /** Times the rate of `workers` test workers: 1, then the margin. */
  factor: number
  /** Creations a second asked for, on average. */
  rate: number
  probes: ProbeSamples
  creation: CreationResult
  /** The probing process's own event-loop delay p99 in this window, ms. */
  clientLagP99: number
}

export interface FarmPlan {
  held: number
  workers: number
  quietSeconds: number
  loadSeconds: number
  probeEveryMs: number
  /** Creations a second one test worker makes (farm-rate.ts measures it): the open loop's rate is `workers` times it. */
  workerCreationsPerSecond: number
  /** The open loop is run again at this many times the farm's rate, for a margin. */
  marginFactor: number
}

const HOLD_MS = 300_000
const LAG_RESOLUTION_MS = 10

/** The phase against a service with its state in memory, then in a data directory; `trace` times the sign knob inside the service too (service-trace.ts). */
export async function measureFarm(plan: FarmPlan, { trace = false } = {}): Promise<FarmResult[]> {
  const results: FarmResult[] = []
  for (const store of ['memory', 'data directory'] as const) results.push(await measureFarmOn(plan, store, trace))
  return results
}

async function measureFarmOn(plan: FarmPlan, store: StoreKind, trace: boolean): Promise<FarmResult> {
  const credentials = generateCredentials()
  const loadStart = loadAverage()
  const traceFile = trace ? join(tmpdir(), `service-auth-farm-trace-${process.pid}.json`) : undefined
  let openWindow: readonly [number, number] = [0, 0]
  let closedWindow: readonly [number, number] = [0, 0]
  const result = await withServiceProcess({ ...credentials, holdMs: HOLD_MS, traceFile }, store, async (url, pid) => {
    const deviceId = await provisionPhone(url, credentials)
    // Each probe answers one held poll: enough more are held that `held` stay held to the end.
    const probes = Math.ceil(((plan.quietSeconds + 3 * plan.loadSeconds) * 1000) / plan.probeEveryMs)
    const { challenges, polls } = await openHeldPolls(url, credentials.apiKey, plan.held + probes)
    try {
      let next = 0
      const probe = async (): Promise<Record<keyof ProbeSamples, number>> => {
        const challenge = challenges[next++]
        if (!challenge) throw new Error(`All ${challenges.length} held polls were signed before the phase ended.`)
        const start = performance.now()
        const knob = signChallenge(url, challenge.id, deviceId).then(({ status, body }) => {
          if (status !== 200) throw new Error(`The sign knob answered ${status}: ${body}`)
          return performance.now() - start
        })
        const [knobMs, wokenAt] = await Promise.all([knob, polls.get(challenge.id)!.answered])
        const asked = performance.now()
        const answer = await send(challenge.pollingUrl, 'GET', '')
        if (answer.status !== 200) throw new Error(`The status of a signed challenge answered ${answer.status}: ${answer.body}`)
        const status = performance.now() - asked
        const read = performance.now()
        const settings = await send(url, 'GET', '/__knobs/config')
        if (settings.status !== 200) throw new Error(`GET /__knobs/config answered ${settings.status}: ${settings.body}`)
        return { knob: knobMs, readKnob: performance.now() - read, wakeUp: wokenAt - start, status }
      }
      const probeFor = async (seconds: number, until?: Promise<unknown>): Promise<ProbeSamples> => {
        const samples: ProbeSamples = { knob: [], readKnob: [], wakeUp: [], status: [] }
        let done = false
        void until?.finally(() => {
          done = true
        })
        const deadline = performance.now() + seconds * 1000
        while (until ? !done : performance.now() < deadline) {
          const started = performance.now()
          const times = await probe()
          for (const key of Object.keys(samples) as (keyof ProbeSamples)[]) samples[key].push(times[key])
          // Paced, not back to back: a test farm signs now and then, and the probes must not be the load.
          await sleep(started + plan.probeEveryMs - performance.now())
        }
        return samples
      }

      /** Probes while `load` creates, with the probing process's own lag and the window on the wall clock (for the trace). */
      const probeUnder = async (load: FarmLoad) => {
        const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS })
        lag.enable()
        const from = Date.now()
        const creating = createInProcess({ url, apiKey: credentials.apiKey, servicePid: pid, store, load, seconds: plan.loadSeconds })
        const probes = await probeFor(plan.loadSeconds, creating)
        const creation = await creating
        lag.disable()
        // The histogram holds whole intervals between its timer's ticks: the delay is what exceeds the resolution.
        return { probes, creation, window: [from, Date.now()] as const, clientLagP99: Math.max(0, lag.percentile(99) / 1e6 - LAG_RESOLUTION_MS) }
      }

      const quiet = await probeFor(plan.quietSeconds)
      // The farm's rate first, then the margin, then the closed loop, which leaves the most behind it.
      const open: OpenLoad[] = []
      for (const factor of [1, plan.marginFactor]) {
        const rate = plan.workers * plan.workerCreationsPerSecond * factor
        const { probes, creation, window, clientLagP99 } = await probeUnder({ kind: 'open', perSecond: rate })
        if (factor === 1) openWindow = window
        open.push({ factor, rate, probes, creation, clientLagP99 })
      }
      const closed = await probeUnder({ kind: 'closed', workers: plan.workers })
      closedWindow = closed.window
      return {
        store,
        held: plan.held,
        workers: plan.workers,
        probeEveryMs: plan.probeEveryMs,
        quiet,
        loaded: closed.probes,
        creation: closed.creation,
        open,
        serviceRssMiB: residentMiB(pid),
        loadAverage: { start: loadStart, end: loadAverage() },
        clientLagP99: closed.clientLagP99,
      }
    } finally {
      for (const { req } of polls.values()) req.destroy()
    }
  })
  if (!traceFile) return result
  try {
    return { ...result, trace: { open: summarizeTrace(traceFile, ...openWindow), closed: summarizeTrace(traceFile, ...closedWindow) } }
  } finally {
    rmSync(traceFile, { force: true })
  }
}

/** The creation load in a child process (farm-creations.ts); resolves with its result. */
function createInProcess(settings: FarmCreationSettings): Promise<CreationResult> {
  const entry = fileURLToPath(new URL('./farm-creations.ts', import.meta.url))
  const child = spawn(process.execPath, ['--import', 'tsx', entry, JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as CreationResult))
    child.once('exit', (code) => reject(new Error(`The creation load exited with ${code} before it reported.`)))
  })
}

const loadAverage = () => Math.round(loadavg()[0]! * 100) / 100
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))
