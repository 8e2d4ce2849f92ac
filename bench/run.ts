// `npm run bench`: every phase of the benchmark in one run, then bench/results.json and
// BENCHMARKS.md (a --quick run writes bench/out/ instead, see report-paths.ts). The build comes first (the npm script runs it). The demo runs in this process,
// so the bench can stamp server-side events on its own clock (probe.ts); the capacity phase
// starts the mock service in a process of its own. Everything started here is stopped here.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startDemo, type Demo } from 'service-auth-demo'
import { launchBrowser, type BenchBrowser } from './browser.js'
import { measureAbuse } from './abuse.js'
import { ABUSE_PLAN } from './abuse-report.js'
import { measureFarm } from './farm.js'
import { FARM_PLAN } from './farm-report.js'
import { measureBusyPage, observerCost, type BusyResult } from './busy-page.js'
import { measureCapacity } from './capacity.js'
import { measureInstallSize } from './install-size.js'
import { KEYS_PLAN, keysLines, measureKeys } from './keys.js'
import { Floor } from './floor.js'
import { Service } from '../e2e/service.js'
import { measureLoad } from './load.js'
import { describeMachine } from './machine.js'
import { measureMemory } from './memory.js'
import { BENCH_PAGES } from './pages.js'
import { Probe } from './probe.js'
import { reportPaths } from './report-paths.js'
import { measureRefresh } from './refresh.js'
import { writeReport } from './report.js'
import type { BenchResults } from './results.js'
import { measureSignToNavigation } from './sign-to-nav.js'
import { measureSize } from './size.js'
import { SourceMapper } from './source-map.js'
import { median } from './stats.js'
import { measureStartup, VARIANTS, type StartupResult, type StartupVariant } from './startup.js'
import { judge, OBSERVER_GOAL_MS_PER_S } from './verdicts.js'

const quick = process.argv.includes('--quick')
// `--report` writes BENCHMARKS.md (or --quick's) again from the samples in its results.json,
// measuring nothing: for a change to how the report reads a run, such as a verdict's wording.
const reportOnly = process.argv.includes('--report')
// `--phase=startup` runs the start-up phase alone (after the size) and prints its medians, and
// `--phase=busy` the busy page's alone and prints the observer's cost, each writing no report: for
// trying a change to the embed in a minute or two rather than the whole run.
const PHASES = ['startup', 'busy']
const phase = process.argv.find((arg) => arg.startsWith('--phase='))?.slice('--phase='.length)
if (phase !== undefined && !PHASES.includes(phase)) throw new Error(`--phase: one of ${PHASES.join(', ')}; got "${phase}".`)
// The full counts keep the whole run near twelve minutes on the 2-core machine; --quick is for trying it.
const PLAN = quick
  ? { startupRuns: 4, tracedRuns: 3, busyRuns: 1, signRuns: 6, loadWindowMs: 6_000, memoryCycles: 30, heldLevels: [1000], signings: 100, creationSeconds: 2 }
  : {
      // Start-up's verdict compares medians a few milliseconds apart, of first visits whose
      // spread is 6 to 17 ms (IQR): with 20 runs a variant, a median moved 3 to 4 ms between two
      // runs of the bench. 60 take about a minute and a half more.
      startupRuns: 60,
      tracedRuns: 10,
      busyRuns: 3,
      signRuns: 40,
      loadWindowMs: 30_000,
      memoryCycles: 200,
      heldLevels: [1000, 5000, 10_000],
      signings: 500,
      creationSeconds: 5,
    }
// The spec's hold, which the widget is built around.
const HOLD_MS = 1000

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url))
const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`)

async function main(): Promise<void> {
  if (reportOnly) return rewriteReport()
  const started = performance.now()
  const size = await measureSize(root('packages/service-auth/dist'))
  log(`size: ${size.iife.file} ${size.iife.gzip} B gzipped`)
  const install = await measureInstallSize(root('.'))
  for (const row of install.rows) log(`${row.install}: ${row.packages} packages, ${row.bytes} B, ${row.nativeFiles} native files`)

  let demo: Demo | undefined
  let browser: BenchBrowser | undefined
  const probe = new Probe()
  try {
    demo = await startDemo({ pages: BENCH_PAGES })
    browser = await launchBrowser()
    const machine = describeMachine(browser.version)
    const knobs = new Service(demo)
    // The bench measures the embed, not the rate limits it would otherwise run into.
    await knobs.configure({ rateLimit: 0, browserRateLimit: 0, holdMs: HOLD_MS })
    const startupFloor = await Floor.open(browser.browser, demo.appUrl, knobs)

    if (phase === 'busy') {
      log('a busy page')
      // More runs than the whole run's three: alone, the phase can afford them, and the figure it
      // is for is a fraction of a millisecond beside a page's several.
      logBusy(await measureBusyPage(browser.browser, { appUrl: demo.appUrl, runs: 3 * PLAN.busyRuns, windowMs: 3000, nodes: 5000 }))
      return
    }
    log('start-up')
    const mapper = new SourceMapper(JSON.parse(readFileSync(root('packages/service-auth/dist/service-auth.js.map'), 'utf8')))
    const startup = await measureStartup(browser.browser, {
      appUrl: demo.appUrl,
      floor: startupFloor,
      probe,
      mapper,
      runs: PLAN.startupRuns,
      tracedRuns: PLAN.tracedRuns,
    })
    if (phase === 'startup') {
      logStartup(startup, startupFloor.samples)
      return
    }
    const signFloor = await Floor.open(browser.browser, demo.appUrl, knobs)
    log('a busy page')
    const busyPage = await measureBusyPage(browser.browser, { appUrl: demo.appUrl, runs: PLAN.busyRuns, windowMs: 3000, nodes: 5000 })
    log('sign to navigation')
    const signToNavigation = await measureSignToNavigation(browser.browser, {
      appUrl: demo.appUrl,
      serviceUrl: demo.serviceUrl,
      knobs,
      probe,
      floor: signFloor,
      runs: PLAN.signRuns,
      holdMs: HOLD_MS,
    })
    log(`load (two windows of ${PLAN.loadWindowMs / 1000} s)`)
    const load = await measureLoad(browser, { appUrl: demo.appUrl, serviceUrl: demo.serviceUrl, knobs, probe, windowMs: PLAN.loadWindowMs, holdMs: HOLD_MS })
    // Five refreshes are enough to try it; the full run takes twenty.
    const refreshes = quick ? 5 : 20
    log(`refreshing a code (${refreshes} refreshes)`)
    const refresh = await measureRefresh(browser.browser, { appUrl: demo.appUrl, serviceUrl: demo.serviceUrl, knobs, probe, refreshes })
    log(`memory (${PLAN.memoryCycles} cycles)`)
    const memory = await measureMemory(browser.browser, { appUrl: demo.appUrl, knobs, cycles: PLAN.memoryCycles })
    await startupFloor.close()
    await signFloor.close()
    // The browser and the demo go before the capacity phase, which wants both cores.
    await browser.close()
    browser = undefined
    await demo.close()
    demo = undefined

    log(`capacity (${PLAN.heldLevels.join(', ')} held polls; challenge creation)`)
    const capacity = await measureCapacity({
      levels: PLAN.heldLevels,
      signings: PLAN.signings,
      creationSeconds: PLAN.creationSeconds,
      creationMaxRequests: 50_000,
      connections: 16,
    })
    for (const x of capacity.creation)
      log(
        `challenge creation${x.imageData ? ' with image data' : ''}, state in ${x.store}: p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms, ${Math.round(x.perSecond)}/s`,
      )
    log(`abuse (${ABUSE_PLAN[quick ? 'quick' : 'full'].botRate} anonymous creations/s while people sign in)`)
    const abuse = await measureAbuse(ABUSE_PLAN[quick ? 'quick' : 'full'])
    const keysPlan = KEYS_PLAN[quick ? 'quick' : 'full']
    log(`keys for one test (${keysPlan.keys} taken and freed, ${keysPlan.concurrent} at a time)`)
    const keys = await measureKeys(keysPlan)
    for (const line of keysLines(keys)) log(line)
    const farmPlan = FARM_PLAN[quick ? 'quick' : 'full']
    log(`a shared CI farm (${farmPlan.held} held polls, ${farmPlan.workers} workers creating)`)
    const farm = await measureFarm(farmPlan)

    const results: BenchResults = {
      machine,
      revision: revision(),
      loadAverageAtEnd: Math.round(loadavg()[0]! * 100) / 100,
      quick,
      durationS: (performance.now() - started) / 1000,
      floor: { startup: startupFloor.samples, signIn: signFloor.samples },
      size,
      install,
      startup,
      busyPage,
      signToNavigation,
      load,
      memory,
      refresh,
      capacity,
      abuse,
      keys,
      farm,
    }
    const paths = reportPaths(root('.'), quick)
    mkdirSync(dirname(paths.json), { recursive: true })
    await writeReport(results, paths.json, paths.markdown)
    logVerdicts(results)
    log(`wrote ${relative(root('.'), paths.json)} and ${relative(root('.'), paths.markdown)} in ${Math.round(results.durationS)} s`)
  } finally {
    probe.close()
    await browser?.close()
    await demo?.close()
  }
}

/** The report of the last run, written again from its samples (its verdicts are judged again). */
async function rewriteReport(): Promise<void> {
  const paths = reportPaths(root('.'), quick)
  const { verdicts: _, ...results } = JSON.parse(readFileSync(paths.json, 'utf8')) as BenchResults & { verdicts: unknown }
  await writeReport(results, paths.json, paths.markdown)
  logVerdicts(results)
  log(`wrote ${relative(root('.'), paths.markdown)} again from ${relative(root('.'), paths.json)} (${results.revision.commit})`)
}

function logVerdicts(results: BenchResults): void {
  for (const j of judge(results)) log(`${j.verdict === 'met' ? 'met   ' : j.verdict.padEnd(6)}  ${j.measure}: ${j.figure} (goal ${j.goal})`)
}

/** The busy page's medians, one line a page, and the observer's cost against its goal. */
function logBusy(busy: BusyResult): void {
  log(`${revision().commit}${revision().srcChanged ? ' (src changed)' : ''}, load average ${loadavg()[0]!.toFixed(2)}`)
  for (const name of ['busy', 'busy+embed', 'busy+observer', 'still', 'still+embed'] as const)
    log(
      `${name.padEnd(12)} script ${median(busy.script[name]).toFixed(2)} ms/s, all tasks ${median(busy.tasks[name]).toFixed(1)} ms/s (${busy.script[name].length} runs)`,
    )
  const { perSecond, perBatch, floor, callback, timing } = observerCost(busy)
  log(
    `the observer: its callback ${callback?.toFixed(3)} ms/s, an empty one timed alike ${timing?.toFixed(3)} ms/s, so its own work ${(callback! - timing!).toFixed(3)} ms/s (goal ≤ ${OBSERVER_GOAL_MS_PER_S} ms/s); all the widget adds to a batch ${(perBatch * 1000).toFixed(1)} µs, ${perSecond.toFixed(2)} ms of script/s; an observer that does nothing ${floor?.toFixed(2)} ms/s`,
  )
}

/** The start-up phase's medians, one line a variant, and the machine's load. */
function logStartup(startup: StartupResult, floor: number[]): void {
  const ms = (values: number[]) => median(values).toFixed(1).padStart(6) + ' ms'
  log(
    `${revision().commit}${revision().srcChanged ? ' (src changed)' : ''}, load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}, floor ${ms(floor)}`,
  )
  log('medians: script start → QR painted | → request | request | of which the service | answer → painted')
  for (const variant of Object.keys(VARIANTS) as StartupVariant[]) {
    const columns = [startup.toVisible, startup.untilRequest, startup.request, startup.serviceTime, startup.afterResponse].map((times) => ms(times[variant]))
    log(`${VARIANTS[variant].label.padEnd(40)} ${columns.join(' | ')} (${startup.toVisible[variant].length} runs)`)
  }
  for (const which of ['widget', 'baseline'] as const)
    log(`evaluate + mount, ${which}: wall ${ms(startup.evaluate[which].wall)}, CPU ${ms(startup.evaluate[which].cpu)}`)
}

function revision(): BenchResults['revision'] {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root('.'), encoding: 'utf8' }).trim()
  try {
    return { commit: git('rev-parse', '--short', 'HEAD'), srcChanged: git('status', '--porcelain', '--', 'packages/service-auth/src').length > 0 }
  } catch {
    return { commit: 'unknown', srcChanged: false }
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
