// `npm run bench:abuse`: the abuse phase alone (abuse.ts), printed, for trying it without the
// whole bench; it writes nothing. `--quick` runs fewer sign-ins. `npm run bench` runs it too,
// and puts it in BENCHMARKS.md.
import { measureAbuse } from './abuse.js'
import { ABUSE_PLAN, abuseLines } from './abuse-report.js'

const plan = ABUSE_PLAN[process.argv.includes('--quick') ? 'quick' : 'full']
console.log(`[bench] abuse: ${plan.botRate} anonymous creations/s against the key, ${plan.signIns} sign-ins each without and with them`)
try {
  for (const line of abuseLines(await measureAbuse(plan))) console.log(line)
} catch (error) {
  console.error(error)
  process.exitCode = 1
}
