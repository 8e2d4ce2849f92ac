// The shared-farm phase's creation load (farm.ts), in a process of its own: in the bench's
// process it would delay the probes' own reading of their answers, which is then in every
// figure. Started by farm.ts with its settings as JSON; prints the CreationResult as one JSON line
// and exits. Two kinds of load:
// - `closed`: `workers` clients (capacity.ts's loadCreation), each sending its next creation when
//   the last is answered: the most the mock can be asked, so the throughput it sustains.
// - `open`: creations that arrive whatever the mock answers, `perSecond` on average, at random
//   (Poisson) times, each on a connection of its own: test workers do not wait for each other,
//   and each creates at its own pace between driving a browser (farm-rate.ts measures that pace).
import { CreationTally, cpuSeconds, loadCreation, type CreationResult, type StoreKind } from './capacity.js'

export type FarmLoad = { kind: 'closed'; workers: number } | { kind: 'open'; perSecond: number }

export interface FarmCreationSettings {
  url: string
  apiKey: string
  servicePid: number
  store: StoreKind
  load: FarmLoad
  seconds: number
}

/** Creations arriving at random times, `perSecond` on average, for `seconds`; `connections` is the most in flight at once. */
async function loadOpenCreation(
  url: string,
  apiKey: string,
  servicePid: number,
  store: StoreKind,
  perSecond: number,
  seconds: number,
): Promise<CreationResult> {
  const tally = new CreationTally(url, { key: apiKey, returnAuthImageData: true })
  const answers: Promise<void>[] = []
  let inFlight = 0
  let mostInFlight = 0
  const cpuBefore = cpuSeconds(servicePid)
  const started = performance.now()
  const create = async () => {
    inFlight++
    mostInFlight = Math.max(mostInFlight, inFlight)
    await tally.create()
    inFlight--
  }
  // Exponential gaps: arrivals of independent workers, each at its own pace, add up to a Poisson stream.
  let due = started
  const end = started + seconds * 1000
  for (;;) {
    due += (-Math.log(1 - Math.random()) / perSecond) * 1000
    if (due >= end) break
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())))
    answers.push(create())
  }
  await Promise.all(answers)
  const durationS = (performance.now() - started) / 1000
  return tally.result({ store, imageData: true, durationS, connections: mostInFlight, serviceCpu: (cpuSeconds(servicePid) - cpuBefore) / durationS })
}

const { url, apiKey, servicePid, store, load, seconds } = JSON.parse(process.argv[2] ?? '{}') as FarmCreationSettings
const result =
  load.kind === 'closed'
    ? await loadCreation(url, apiKey, true, servicePid, store, {
        creationSeconds: seconds,
        creationMaxRequests: Number.POSITIVE_INFINITY,
        connections: load.workers,
      })
    : await loadOpenCreation(url, apiKey, servicePid, store, load.perSecond, seconds)
process.stdout.write(JSON.stringify(result) + '\n')
