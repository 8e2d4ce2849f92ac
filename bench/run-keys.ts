// `npm run bench:keys`: the keys phase alone (keys.ts), printed, for trying it without the whole
// bench; it writes nothing. `--quick` takes and frees 10,000 keys instead of 100,000. `npm run
// bench` runs it too, and puts it in BENCHMARKS.md.
import { KEYS_PLAN, keysLines, keysVerdict, measureKeys } from './keys.js'

const plan = KEYS_PLAN[process.argv.includes('--quick') ? 'quick' : 'full']
console.log(`[bench] keys: ${plan.keys} taken and freed, ${plan.concurrent} at a time`)
try {
  const result = await measureKeys(plan)
  for (const line of keysLines(result)) console.log(line)
  const { verdict, goal } = keysVerdict(result)
  console.log(`${verdict} (goal: ${goal})`)
} catch (error) {
  console.error(error)
  process.exitCode = 1
}
