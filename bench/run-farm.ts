// `npm run bench:farm`: the shared-farm phase alone (farm.ts), printed, for trying it without the
// whole bench; it writes nothing. `--quick` holds fewer polls for a shorter time. `npm run bench`
// runs it too, and puts it in BENCHMARKS.md. `--trace` also times the sign knob's phases inside the
// service (service-trace.ts), which the bench itself does not, since watching costs the service a little.
import { measureFarm } from './farm.js'
import { FARM_PLAN, farmLines, farmVerdict } from './farm-report.js'
import { traceLines } from './farm-trace.js'

const plan = FARM_PLAN[process.argv.includes('--quick') ? 'quick' : 'full']
const rate = plan.workers * plan.workerCreationsPerSecond
console.log(
  `[bench] farm: ${plan.held} held polls; creations at ${rate.toFixed(0)}/s (${plan.workers} workers × ${plan.workerCreationsPerSecond}/s, at random), at ${plan.marginFactor}× that, then a closed loop of ${plan.workers} clients, ${plan.loadSeconds} s each; state in memory, then in a data directory`,
)
try {
  for (const run of await measureFarm(plan, { trace: process.argv.includes('--trace') })) {
    const { verdict, figure } = farmVerdict(run)
    for (const line of [
      ...farmLines([run]),
      `  verdict: ${verdict}: ${figure}`,
      ...(run.trace ? [...traceLines(run.trace.open, "at the farm's rate"), ...traceLines(run.trace.closed, 'under the closed loop')] : []),
    ])
      console.log(line)
  }
} catch (error) {
  console.error(error)
  process.exitCode = 1
}
