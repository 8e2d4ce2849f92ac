// Measure 6: what the mock service holds on this 2-core machine. The service runs in a child
// process (capacity-service.ts), the load comes from this one, over loopback. It keeps its state
// in a data directory, as `npm start` does; challenge creation is measured in memory too, beside it.
//
// Held polls: N challenges, one status poll each, all held at once (the hold is set longer than
// the phase, so none is answered until signed; the service's own count of polls confirms they
// all arrived). Then a sample of them is signed one after another, and each wake-up is timed from
// sending the sign knob to the poll's answer arriving here. The other polls stay held meanwhile.
//
// Challenge creation: a closed loop of clients, bounded in time and in request count, once as
// the embed asks (with inline image data, so the service renders two PNGs per challenge) and
// once without. Not autocannon: it writes its next request onto the connection the service is
// closing after each answer (every service answer closes its connection), so its request counts
// stay right but its latencies are measured from requests that were lost and sent again.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request, type ClientRequest, type IncomingMessage } from 'node:http'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { generateCredentials } from '@service-auth/mock/service'
import { createClient } from 'service-auth/server'
import type { ServiceProcessSettings } from './capacity-service.js'
import { percentile, shuffled } from './stats.js'

export interface HeldResult {
  held: number
  /** Time to open all the polls and see them held, ms. */
  openMs: number
  /** Sign knob sent to poll answer received, ms, per signed poll. */
  wakeUps: number[]
  /** The service's resident memory with all of them held, MiB. */
  serviceRssMiB: number
}

/** Where the service kept its state: `npm start`'s data directory, or memory (the tests'). */
export type StoreKind = 'data directory' | 'memory'

export interface CreationResult {
  store: StoreKind
  imageData: boolean
  durationS: number
  connections: number
  requests: number
  perSecond: number
  /** Latency, ms. */
  p50: number
  p99: number
  non2xx: number
  errors: number
  /** The service's CPU use over the run, in cores (1 = one core busy all the time). */
  serviceCpu: number
}

export interface CapacityResult {
  holdMs: number
  /** Where the service of the held polls kept its state. */
  heldStore: StoreKind
  held: HeldResult[]
  creation: CreationResult[]
}

interface Options {
  levels: number[]
  /** Polls signed per level. */
  signings: number
  creationSeconds: number
  creationMaxRequests: number
  connections: number
  /** Where the service of the held polls keeps its state; default a data directory, as `npm start`. */
  heldStore?: StoreKind
}

// Longer than any level takes, so that no poll is answered 204 while the bench waits.
const HOLD_MS = 120_000
const IDENTIFIER = 'capacity@example.com'

export async function measureCapacity(options: Options): Promise<CapacityResult> {
  const credentials = generateCredentials()
  const held: HeldResult[] = []
  const creation: CreationResult[] = []
  const heldStore = options.heldStore ?? 'data directory'
  for (const store of ['data directory', 'memory'] as const) {
    await withServiceProcess({ ...credentials, holdMs: HOLD_MS }, store, async (url, pid) => {
      if (store === heldStore) {
        const deviceId = await provisionPhone(url, credentials)
        for (const level of options.levels) held.push(await holdPolls(url, pid, credentials.apiKey, deviceId, level, options.signings))
      }
      for (const imageData of [true, false]) creation.push(await loadCreation(url, credentials.apiKey, imageData, pid, store, options))
    })
  }
  return { holdMs: HOLD_MS, heldStore, held, creation }
}

/** Runs `measure` against a service process keeping its state where `store` says (a fresh temporary directory), then stops it. */
export async function withServiceProcess<T>(
  settings: Omit<ServiceProcessSettings, 'dataDir'>,
  store: StoreKind,
  measure: (url: string, pid: number) => Promise<T>,
): Promise<T> {
  const dataDir = store === 'data directory' ? mkdtempSync(join(tmpdir(), 'service-auth-bench-')) : undefined
  try {
    const { child, url } = await startServiceProcess({ ...settings, dataDir })
    try {
      return await measure(url, child.pid!)
    } finally {
      child.stdin!.end()
      child.kill('SIGTERM')
      await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(undefined)))
    }
  } finally {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The mock service in a child process of its own (capacity-service.ts); end it with `child.stdin.end()`. */
export async function startServiceProcess(settings: ServiceProcessSettings): Promise<{ child: ChildProcess; url: string }> {
  const entry = fileURLToPath(new URL('./capacity-service.ts', import.meta.url))
  const child = spawn(process.execPath, ['--import', 'tsx', entry, JSON.stringify(settings)], { stdio: ['pipe', 'pipe', 'inherit'] })
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve)
      child.once('exit', (code) => reject(new Error(`The capacity service exited with ${code} before it listened.`)))
    })
    return { child, url: (JSON.parse(line) as { url: string }).url }
  } catch (error) {
    child.kill('SIGTERM')
    throw error
  }
}

export async function provisionPhone(url: string, { apiKey, apiSecret }: { apiKey: string; apiSecret: string }): Promise<string> {
  const { enrollment } = await createClient({ baseUrl: url, key: apiKey, secret: apiSecret }).enroll({ identifier: IDENTIFIER })
  const { body } = await send(url, 'POST', '/__knobs/devices', { token: enrollment.id })
  return (JSON.parse(body) as { device: { id: string } }).device.id
}

async function holdPolls(url: string, servicePid: number, apiKey: string, deviceId: string, level: number, signings: number): Promise<HeldResult> {
  const { challenges, polls, openMs } = await openHeldPolls(url, apiKey, level)
  try {
    const serviceRssMiB = residentMiB(servicePid)
    const wakeUps: number[] = []
    for (const { id } of shuffled(challenges).slice(0, signings)) {
      const start = performance.now()
      const knob = signChallenge(url, id, deviceId)
      wakeUps.push((await polls.get(id)!.answered) - start)
      await knob
    }
    return { held: level, openMs, wakeUps, serviceRssMiB }
  } finally {
    for (const { req } of polls.values()) req.destroy()
  }
}

/** The sign knob, as the phone of provisionPhone(). */
export const signChallenge = (url: string, id: string, deviceId: string) =>
  send(url, 'POST', `/__knobs/challenges/${encodeURIComponent(id)}/sign`, { identifier: IDENTIFIER, deviceId })

/** A status poll held by the service; `answered` resolves with the time its answer's head arrived here. */
export interface HeldPoll {
  req: ClientRequest
  answered: Promise<number>
}

/**
 * Creates `level` challenges and holds a status poll on each, resolving once the service has
 * counted every one; the caller destroys the polls (`req.destroy()`) when done.
 */
export async function openHeldPolls(
  url: string,
  apiKey: string,
  level: number,
): Promise<{ challenges: Created[]; polls: Map<string, HeldPoll>; openMs: number }> {
  const challenges = await createChallenges(url, apiKey, level)
  const polls = new Map<string, HeldPoll>()
  const opened = performance.now()
  try {
    // In batches: thousands of connects at once overflow the listen backlog, and the retried
    // SYNs would only measure the kernel's back-off.
    for (let i = 0; i < challenges.length; i += 250) {
      await Promise.all(challenges.slice(i, i + 250).map((challenge) => openPoll(challenge, polls)))
    }
    await untilHeld(url, level)
  } catch (error) {
    for (const { req } of polls.values()) req.destroy()
    throw error
  }
  return { challenges, polls, openMs: performance.now() - opened }
}

/** Sends a status poll; `answered` resolves with the time its answer's head arrived. */
function openPoll({ id, pollingUrl }: Created, polls: Map<string, HeldPoll>): Promise<void> {
  return new Promise((sent, failed) => {
    let req!: ClientRequest
    const answered = new Promise<number>((resolve, reject) => {
      req = request(pollingUrl, { agent: false }, (res: IncomingMessage) => {
        resolve(performance.now())
        res.resume()
      })
      req.once('error', (error) => {
        reject(error)
        failed(error)
      })
    })
    // Destroyed polls reject; nobody awaits those.
    answered.catch(() => {})
    req.end(() => sent())
    polls.set(id, { req, answered })
  })
}

/** Waits until the service has counted a poll for every challenge: then all of them are held. */
async function untilHeld(url: string, level: number): Promise<void> {
  const deadline = performance.now() + 60_000
  for (;;) {
    const list = JSON.parse((await send(url, 'GET', '/__knobs/challenges')).body) as { state: string; polls: number }[]
    const pending = list.filter((c) => c.state === 'pending' && c.polls > 0)
    if (pending.length >= level) return
    if (performance.now() > deadline) throw new Error(`Only ${pending.length} of ${level} polls reached the service within a minute.`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** A challenge and the status URL only its creator may poll. */
export interface Created {
  id: string
  pollingUrl: string
}

async function createChallenges(url: string, apiKey: string, count: number): Promise<Created[]> {
  const created: Created[] = []
  const next = async () => {
    while (created.length < count) {
      const placeholder = created.push({ id: '', pollingUrl: '' }) - 1
      const { status, body } = await send(url, 'POST', '/v1/entity/challenges', { key: apiKey })
      if (status !== 201) throw new Error(`Creating a challenge answered ${status}: ${body}`)
      const { id, pollingUrl } = JSON.parse(body) as Created
      created[placeholder] = { id, pollingUrl }
    }
  }
  await Promise.all(Array.from({ length: 32 }, next))
  return created
}

/** One request, on a connection of its own; `path` is appended to `url`, and `localAddress` (any 127.x.y.z reaches a service on 127.0.0.1) says where it comes from. */
export function send(url: string, method: string, path: string, body?: unknown, localAddress?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url + path,
      { method, agent: false, localAddress, headers: body === undefined ? {} : { 'Content-Type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }))
      },
    )
    req.once('error', reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

export function residentMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 102.4) / 10
  } catch {
    return NaN
  }
}

/**
 * A closed loop of `connections` clients, each sending the next creation when the last one is
 * answered, on a fresh connection as the service wants (it closes every connection). Bounded by
 * time and by count. The service's CPU time over the run says whether it, not this client, was
 * the limit.
 */
export async function loadCreation(
  url: string,
  apiKey: string,
  imageData: boolean,
  servicePid: number,
  store: StoreKind,
  options: Pick<Options, 'creationSeconds' | 'creationMaxRequests' | 'connections'>,
): Promise<CreationResult> {
  const tally = new CreationTally(url, { key: apiKey, returnAuthImageData: imageData })
  let sent = 0
  const started = performance.now()
  const cpuBefore = cpuSeconds(servicePid)
  const deadline = started + options.creationSeconds * 1000
  const worker = async () => {
    while (performance.now() < deadline && sent < options.creationMaxRequests) {
      sent++
      await tally.create()
    }
  }
  await Promise.all(Array.from({ length: options.connections }, worker))
  const durationS = (performance.now() - started) / 1000
  return tally.result({ store, imageData, durationS, connections: options.connections, serviceCpu: (cpuSeconds(servicePid) - cpuBefore) / durationS })
}

/** The creations of one load, as they are answered: each one's latency, and those not created. */
export class CreationTally {
  readonly #latencies: number[] = []
  #non2xx = 0
  #errors = 0

  constructor(
    private readonly url: string,
    private readonly body: object,
  ) {}

  /** Sends one creation, and counts how it was answered: 201, another status, or not at all. */
  async create(): Promise<void> {
    const start = performance.now()
    try {
      const { status } = await send(this.url, 'POST', '/v1/entity/challenges', this.body)
      if (status !== 201) this.#non2xx++
      this.#latencies.push(performance.now() - start)
    } catch {
      this.#errors++
    }
  }

  /** The load's result, with what only its caller knows. */
  result(run: Pick<CreationResult, 'store' | 'imageData' | 'durationS' | 'connections' | 'serviceCpu'>): CreationResult {
    const latencies = this.#latencies
    return {
      ...run,
      requests: latencies.length,
      perSecond: latencies.length / run.durationS,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      non2xx: this.#non2xx,
      errors: this.#errors,
    }
  }
}

/** User plus system CPU seconds the process has used (Linux /proc). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    // utime and stime are the 12th and 13th fields after the command name, in clock ticks (100 per second here).
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return NaN
  }
}
