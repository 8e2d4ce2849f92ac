// The rate at which one test worker creates challenges, for the shared-farm phase's load model
// (farm.ts): `npx tsx bench/farm-rate.ts [repeats] [grep]` runs our shared-mock sign-in suite
// (e2e/shared-mock: six stories, or those whose title matches a grep, each steering the one shared `service-auth-mock` through the
// test kit, each creating challenges as the embed does in a real Chromium) with ONE worker, and
// counts the creations that reached the mock (creation-counter.mjs, preloaded into the run's
// processes). What a Playwright worker does between two creations is what it does in a farm: a
// browser to drive, a page to load, an app to start, knobs to turn. Prints the creations, the
// time from the first to the last, and their rate, as one JSON line last.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export interface WorkerRate {
  /** Each story was run `repeats` times; `passed` says they all passed. */
  repeats: number
  passed: boolean
  creations: number
  /** First creation to last, s. */
  seconds: number
  perSecond: number
}

const root = fileURLToPath(new URL('..', import.meta.url))
const counter = pathToFileURL(fileURLToPath(new URL('./creation-counter.mjs', import.meta.url))).href

export function measureWorkerRate(repeats: number, grep?: string): WorkerRate {
  const dir = mkdtempSync(join(tmpdir(), 'service-auth-farm-rate-'))
  try {
    const run = spawnSync(
      'npx',
      [
        'playwright',
        'test',
        '-c',
        'e2e/shared-mock',
        '--project',
        'one shared mock',
        '--workers',
        '1',
        '--repeat-each',
        String(repeats),
        '--reporter',
        'line',
        ...(grep ? ['--grep', grep] : []),
      ],
      {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, CI: '1', CREATION_COUNTER_DIR: dir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${counter}`.trim() },
      },
    )
    const arrivals = readdirSync(dir)
      .flatMap((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as number[])
      .sort((a, b) => a - b)
    const seconds = arrivals.length > 1 ? (arrivals.at(-1)! - arrivals[0]!) / 1000 : Number.NaN
    return { repeats, passed: run.status === 0, creations: arrivals.length, seconds, perSecond: (arrivals.length - 1) / seconds }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(measureWorkerRate(Number(process.argv[2] ?? 3), process.argv[3])))
}
