// Measure 8: what keys for one test cost a mock shared by a CI farm for hours. Each test takes a
// key (POST /__knobs/keys) and frees it when it ends (DELETE /__knobs/keys/{key}, what the kit's
// isolated connection does in close()); the service's resident memory after 100,000 of them
// must be within 10 % of where it started. Before keys could be freed, 100,000 cost 130 MiB.
//
// The service runs alone in a child process (capacity-service.ts), in memory, as a shared mock
// in CI would; `concurrent` tests at a time take and free theirs. The start is read after a
// warm-up of 1,000 keys, so that it counts what the code needs once (compiled code, the first
// buffers), not the keys. Its verdict, its lines and its BENCHMARKS.md section are here too.
import { KnobClient } from '@service-auth/mock/knobs'
import { generateCredentials } from '@service-auth/mock/service'
import { residentMiB, withServiceProcess } from './capacity.js'

export interface KeysResult {
  keys: number
  concurrent: number
  durationS: number
  /** The service's resident memory after the warm-up, and after the keys, MiB. */
  rssStartMiB: number
  rssEndMiB: number
  /** Takes or frees that did not answer 201 or 204. */
  failures: number
  /** The control, in a service of its own: half as many keys taken and never freed, and its memory after them, MiB. */
  unfreed: { keys: number; rssStartMiB: number; rssEndMiB: number }
}

export const KEYS_PLAN = { full: { keys: 100_000, concurrent: 16 }, quick: { keys: 10_000, concurrent: 16 } } as const

const WARM_UP = 10_000
/** The goal: within 10 % of where it started. */
const WITHIN = 0.1

export async function measureKeys({ keys, concurrent }: { keys: number; concurrent: number }): Promise<KeysResult> {
  const freed = await withServiceProcess({ ...generateCredentials(), holdMs: 1000 }, 'memory', async (url, pid) => {
    await takeAndFree(url, WARM_UP, concurrent)
    const rssStartMiB = residentMiB(pid)
    const started = performance.now()
    const failures = await takeAndFree(url, keys, concurrent)
    const durationS = (performance.now() - started) / 1000
    return { keys, concurrent, durationS, rssStartMiB, rssEndMiB: residentMiB(pid), failures }
  })
  // What the phase would see without the freeing: the memory grows, so the measure can fail.
  const unfreed = await withServiceProcess({ ...generateCredentials(), holdMs: 1000 }, 'memory', async (url, pid) => {
    await takeAndFree(url, WARM_UP, concurrent)
    const rssStartMiB = residentMiB(pid)
    await takeAndFree(url, keys / 2, concurrent, { free: false })
    return { keys: keys / 2, rssStartMiB, rssEndMiB: residentMiB(pid) }
  })
  return { ...freed, unfreed }
}

/** `count` keys taken and freed (unless told not to), `concurrent` at a time, as tests that end; how many calls failed. */
async function takeAndFree(url: string, count: number, concurrent: number, { free = true } = {}): Promise<number> {
  const knobs = new KnobClient(url)
  let taken = 0
  let failures = 0
  const test = async () => {
    while (taken < count) {
      taken++
      try {
        const { key } = await knobs.createKey()
        if (free) await knobs.freeKey(key)
      } catch {
        failures++
      }
    }
  }
  await Promise.all(Array.from({ length: concurrent }, test))
  return failures
}

const growth = (k: { rssStartMiB: number; rssEndMiB: number }) => k.rssEndMiB / k.rssStartMiB - 1
const percent = (share: number) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)} %`

/** What one run found, a line per figure. */
export function keysLines(k: KeysResult): string[] {
  return [
    `${k.keys.toLocaleString('en')} keys taken and freed, ${k.concurrent} at a time, in ${k.durationS.toFixed(1)} s (${Math.round((2 * k.keys) / k.durationS)} requests/s), ${k.failures} failed`,
    `service RSS: ${k.rssStartMiB.toFixed(1)} MiB after the warm-up, ${k.rssEndMiB.toFixed(1)} MiB after the keys (${percent(growth(k))})`,
    `control, ${k.unfreed.keys.toLocaleString('en')} keys taken and never freed: ${k.unfreed.rssStartMiB.toFixed(1)} → ${k.unfreed.rssEndMiB.toFixed(1)} MiB (${percent(growth(k.unfreed))})`,
  ]
}

/** The verdict: the resident memory ends within 10 % of where it started, and every call succeeded. */
export function keysVerdict(k: KeysResult) {
  return {
    measure: `The mock's memory after ${k.keys.toLocaleString('en')} keys taken and freed`,
    figure: `${k.rssStartMiB.toFixed(1)} → ${k.rssEndMiB.toFixed(1)} MiB (${percent(growth(k))}), ${k.failures} failed calls`,
    goal: `within ${WITHIN * 100} % of the start`,
    verdict: Math.abs(growth(k)) <= WITHIN && k.failures === 0 ? ('met' as const) : ('missed' as const),
  }
}

/** The BENCHMARKS.md section: a heading, the method, and a table. */
export function keysSection(k: KeysResult): string[] {
  return [
    '## 8. Keys for one test, taken and freed',
    `A mock shared by a CI farm hands every test a key of its own (\`POST /__knobs/keys\`), and the test frees it when it ends (\`DELETE /__knobs/keys/{key}\`, what the kit's isolated connection does in \`close()\`). Here ${k.concurrent} tests at a time take and free ${k.keys.toLocaleString('en')} keys from the mock service alone in a child process, its state in memory; its resident memory is read after a warm-up of ${WARM_UP.toLocaleString('en')} keys and again at the end. The control, a service of its own, takes half as many and frees none: what the measure would see without the freeing. Before keys could be freed, 100,000 of them cost 130 MiB that nothing gave back. \`npm run bench:keys\` runs this phase alone and prints it.`,
    [
      '| Keys | Concurrent | Time | Requests/s | RSS at the start | RSS at the end | Change | Failed calls |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      `| ${k.keys.toLocaleString('en')} taken and freed | ${k.concurrent} | ${k.durationS.toFixed(1)} s | ${Math.round((2 * k.keys) / k.durationS)} | ${k.rssStartMiB.toFixed(1)} MiB | ${k.rssEndMiB.toFixed(1)} MiB | ${percent(growth(k))} | ${k.failures} |`,
      `| ${k.unfreed.keys.toLocaleString('en')} taken, never freed (control) | ${k.concurrent} | | | ${k.unfreed.rssStartMiB.toFixed(1)} MiB | ${k.unfreed.rssEndMiB.toFixed(1)} MiB | ${percent(growth(k.unfreed))} | |`,
    ].join('\n'),
  ]
}
