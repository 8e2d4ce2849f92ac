// What one bench run found: the raw samples of every phase, and the machine. run.ts fills it,
// verdicts.ts judges it against the goals, report.ts writes it out.
import type { AbuseResult } from './abuse.js'
import type { BusyResult } from './busy-page.js'
import type { CapacityResult } from './capacity.js'
import type { FarmResult } from './farm.js'
import type { InstallResult } from './install-size.js'
import type { KeysResult } from './keys.js'
import type { LoadResult } from './load.js'
import type { Machine } from './machine.js'
import type { MemoryResult } from './memory.js'
import type { RefreshResult } from './refresh.js'
import type { SignResult } from './sign-to-nav.js'
import type { SizeResult } from './size.js'
import type { StartupResult } from './startup.js'

export interface BenchResults {
  machine: Machine
  /** The commit measured, and whether the embed's sources had changes not committed yet (then the bundle's hash tells which). */
  revision: { commit: string; srcChanged: boolean }
  /** Load average over the last minute when the run ended, beside machine.loadAverage at its start. */
  loadAverageAtEnd: number
  /** `--quick`: fewer runs, shorter windows; for trying the bench, not for the record. */
  quick: boolean
  durationS: number
  /** Empty-request round trips to the mock service from a page, ms: the start-up phase's and the sign-in phase's. */
  floor: { startup: number[]; signIn: number[] }
  size: SizeResult
  /** What installing each package brings; absent from runs made before the split into two packages. */
  install?: InstallResult
  startup: StartupResult
  busyPage: BusyResult
  signToNavigation: SignResult
  load: LoadResult
  memory: MemoryResult
  refresh: RefreshResult
  capacity: CapacityResult
  /** Absent from runs made before the phase existed. */
  abuse?: AbuseResult
  /** Keys for one test taken and freed; absent from runs made before the phase existed. */
  keys?: KeysResult
  /** One per store, memory then data directory; absent from runs made before the phase existed. */
  farm?: FarmResult[]
}
