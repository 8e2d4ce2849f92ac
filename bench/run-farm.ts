// `npm run bench:farm`: the shared-farm phase alone (farm.ts), printed, for trying it without the
// whole bench; it writes nothing. `--quick` holds fewer polls for a shorter time. `npm run bench`
// runs it too, and puts it in BENCHMARKS.md.
import { measureFarm } from './farm.js'
import { FARM_PLAN, farmLines } from './farm-report.js'

const plan = FARM_PLAN[process.argv.includes('--quick') ? 'quick' : 'full']
console.log(`[bench] farm: ${plan.held} held polls, ${plan.workers} workers creating for ${plan.loadSeconds} s, state in memory, then in a data directory`)
try {
  for (const line of farmLines(await measureFarm(plan))) console.log(line)
} catch (error) {
  console.error(error)
  process.exitCode = 1
}
