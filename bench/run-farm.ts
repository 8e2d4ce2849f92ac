// `npm run bench:farm`: the shared-farm phase alone (farm.ts), printed, for trying it without the
// whole bench; it writes nothing. `--quick` holds fewer polls for a shorter time. `npm run bench`
// runs it too, and puts it in BENCHMARKS.md. `--trace` also times the sign knob's phases inside the
// service (service-trace.ts), which the bench itself does not, since watching costs the service a little.
import { measureFarm } from './farm.js'
import { FARM_PLAN, farmLines } from './farm-report.js'
import { traceLines } from './farm-trace.js'

const plan = FARM_PLAN[process.argv.includes('--quick') ? 'quick' : 'full']
console.log(`[bench] farm: ${plan.held} held polls, ${plan.workers} workers creating for ${plan.loadSeconds} s, state in memory, then in a data directory`)
try {
  for (const run of await measureFarm(plan, { trace: process.argv.includes('--trace') })) {
    for (const line of [...farmLines([run]), ...(run.trace ? traceLines(run.trace) : [])]) console.log(line)
  }
} catch (error) {
  console.error(error)
  process.exitCode = 1
}
