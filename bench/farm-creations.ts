// The shared-farm phase's creation load (farm.ts), in a process of its own: the closed loop of
// `workers` clients (capacity.ts's loadCreation) keeps a core busy, and in the bench's process it
// would delay the probes' own reading of their answers, which is then in every figure. Started by
// farm.ts with its settings as JSON; prints the CreationResult as one JSON line and exits.
import { loadCreation, type StoreKind } from './capacity.js'

export interface FarmCreationSettings {
  url: string
  apiKey: string
  servicePid: number
  store: StoreKind
  workers: number
  seconds: number
}

const { url, apiKey, servicePid, store, workers, seconds } = JSON.parse(process.argv[2] ?? '{}') as FarmCreationSettings
const result = await loadCreation(url, apiKey, true, servicePid, store, {
  creationSeconds: seconds,
  creationMaxRequests: Number.POSITIVE_INFINITY,
  connections: workers,
})
process.stdout.write(JSON.stringify(result) + '\n')
