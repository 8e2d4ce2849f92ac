// Writes a run out: bench/results.json (every sample, for anyone who wants to look again) and
// BENCHMARKS.md (the tables, the method, the verdicts). The "Analysis" section of BENCHMARKS.md
// is written by people, from a run's figures; a new run keeps it as it is, so it says which
// run it read.
import { readFile, writeFile } from 'node:fs/promises'
import { abuseSection } from './abuse-report.js'
import { observerCost } from './busy-page.js'
import { keysSection } from './keys.js'
import { farmSection } from './farm-report.js'
import { mutationSection, readMutation } from './mutation.js'
import { REFERENCE_CYCLE } from './memory.js'
import type { BenchResults } from './results.js'
import { BASELINE_INTERVAL_MS } from './sign-to-nav.js'
import { VARIANTS, type StartupVariant } from './startup.js'
import { median, percentile, summarize } from './stats.js'
import { judge, memoryNoise, signed } from './verdicts.js'

const ANALYSIS_START = '<!-- analysis: kept by npm run bench -->'
const ANALYSIS_END = '<!-- /analysis -->'

export async function writeReport(results: BenchResults, jsonPath: string, markdownPath: string): Promise<void> {
  // Judged and written from the samples as stored, rounded to the microsecond, so that
  // `npm run bench -- --report` writes the same files again from results.json alone.
  const stored = JSON.parse(toJson(results)) as BenchResults
  await writeFile(jsonPath, toJson({ ...stored, verdicts: judge(stored) }))
  const previous = await readFile(markdownPath, 'utf8').catch(() => '')
  // The mutation score is kept by `npm run mutate` (bench/mutation.ts), which runs apart.
  const embed = await readMutation()
  const server = await readMutation('server')
  const mutation = [...mutationSection(embed.summary, embed.reasons), ...mutationSection(server.summary, server.reasons, 'server')]
  await writeFile(markdownPath, markdown(stored, keptAnalysis(previous), mutation))
}

/** Microseconds are the finest grain any figure here has; lists of numbers stay on one line. */
function toJson(value: unknown): string {
  const text = JSON.stringify(value, (_, v: unknown) => (typeof v === 'number' ? Math.round(v * 1000) / 1000 : v), 2)
  return text.replace(/\[\s+(-?[\d.e+-]+(?:,\s+-?[\d.e+-]+)*)\s+\]/g, (_, list: string) => `[${list.split(/,\s+/).join(', ')}]`) + '\n'
}

function keptAnalysis(previous: string): string {
  const start = previous.indexOf(ANALYSIS_START)
  const end = previous.indexOf(ANALYSIS_END)
  if (start < 0 || end < start) return '_Not written yet: read the tables above, then explain each missed goal here._\n'
  return previous.slice(start + ANALYSIS_START.length, end).replace(/^\n+/, '')
}

const table = (head: string[], rows: (string | number)[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n')

const f1 = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–')
const f2 = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '–')
const bytes = (value: number) => value.toLocaleString('en')
const spread = (values: number[], digits = f1) => {
  const s = summarize(values)
  return [digits(s.median), digits(s.p95), digits(s.iqr), `${digits(s.min)}–${digits(s.max)}`]
}

function markdown(r: BenchResults, analysis: string, mutation: string[]): string {
  const floorStart = median(r.floor.startup)
  const floorSign = median(r.floor.signIn)
  const m = r.machine
  const out: string[] = []
  // Every block gets a blank line after it: a table right after a paragraph would not render.
  const say = (...blocks: string[]) => out.push(...blocks.flatMap((block) => [block, '']))

  say(
    '# Benchmarks',
    `Size, speed, load and memory of the embed, side by side with a naive baseline, against the goals of issues 5 and 14. Written by \`npm run bench\` on ${m.date.slice(0, 10)}${r.quick ? ' with `--quick` (fewer runs: not for the record)' : ''}; every sample is in [bench/results.json](bench/results.json).`,
  )
  say(
    '## How to run',
    '```sh\nnpm run bench              # builds, runs every phase (about 4 minutes), writes bench/results.json and this file\nnpm run bench -- --quick   # fewer runs and shorter windows, to try it out; writes bench/out/ (git ignores it)\nnpm run bench -- --report  # measures nothing: writes this file again from bench/results.json\n```',
    'It is not part of `npm test`, and asserts nothing: only the size budget is a test (`test/build.test.ts`). It starts the demo in-process, one Chromium (found as the e2e tests find it), and for the capacity phase the mock service in a child process, all on 127.0.0.1 with ephemeral ports, and stops them all when it ends. Times are medians with their spread (p95, the interquartile range, min–max); a figure compared with another is compared within this run, because these machines are noisy.',
  )
  say(
    '## Machine',
    [
      `- ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB; ${m.os}`,
      `- Node ${m.node}, Chromium ${m.chromium} (headless); open files allowed: ${m.openFileLimit}`,
      `- Load average (1 min) ${m.loadAverage} at the start, ${r.loadAverageAtEnd} at the end (the bench's own work included); the run took ${Math.round(r.durationS)} s`,
      `- Measured: commit ${r.revision.commit}${r.revision.srcChanged ? ' with changes to src/ not yet committed' : ''}; the IIFE measured is \`${r.size.iife.integrity}\``,
    ].join('\n'),
    // The end's figure includes the bench's own browser and servers; the start's is someone else's.
    ...(m.loadAverage > m.cores / 2
      ? [
          `**Something else kept this machine busy when the run started** (load average ${m.loadAverage} on ${m.cores} cores): absolute times are slower and noisier than on a quiet machine; the ratios, taken within the run, suffer less.`,
        ]
      : []),
  )
  say(
    '## Verdicts',
    table(
      ['Measure', 'Figure', 'Goal', 'Verdict'],
      judge(r).map((j) => [j.measure, j.figure, j.goal, j.verdict === 'met' ? 'met' : `**${j.verdict}**`]),
    ),
  )

  say(
    '## 1. Bundle size',
    'From `dist/manifest.json`, which the build writes (gzip level 9, brotli quality 11). The versioned copies are byte-identical to these. The baseline is the naive poller of section 3, unminified: it handles no error, expiry, hidden tab, language or accessibility, so it is there for scale only.',
    table(
      ['File', 'Bytes', 'gzip', 'brotli'],
      [...r.size.files, r.size.baseline].map((row) => [row.file, bytes(row.bytes), bytes(row.gzip), bytes(row.brotli)]),
    ),
    ...(r.size.packs
      ? [
          `The ${r.size.packs.count} language packs (\`service-auth.<code>.js\`, one a language) weigh ${bytes(r.size.packs.gzip.min)}–${bytes(r.size.packs.gzip.max)} B gzipped each (median ${bytes(r.size.packs.gzip.median)} B; the largest \`${r.size.packs.largest}\`); \`service-auth.languages.js\` above is all of them in one file.`,
        ]
      : []),
    `The IIFE (\`${r.size.iife.file}\`) is ${bytes(r.size.iife.gzip)} B gzipped: budget ${bytes(r.size.iife.budget)} B, aim ${bytes(r.size.iife.aim)} B.`,
  )
  if (r.install) {
    say(
      '### Install size',
      'Each package packed (`npm pack`) and installed with npm into a fresh project of its own, install scripts allowed, as an integrator installs it: the packages that land in `node_modules`, their bytes on disk, the native files among them and the packages that run a script at install. The mock installs the embed beside it (its dependency).',
      table(
        ['Install', 'Tarball, B', 'Packages', 'node_modules, B', 'Native files', 'Install scripts'],
        r.install.rows.map((row) => [
          `\`${row.install}\``,
          bytes(row.tarballBytes),
          row.packages,
          bytes(row.bytes),
          row.nativeFiles,
          row.installScripts.join(', ') || 'none',
        ]),
      ),
    )
  }

  const variants = Object.keys(VARIANTS) as StartupVariant[]
  const s = r.startup
  say(
    '## 2. Start-up',
    `Each run is a first visit in a fresh browser context: the bench page (nothing on it but the element and the script; the variants "on a page with text" have a heading and a line of text above it, as a login page has), then the time from the script starting to the QR code painted. The script starts at the later of a \`performance.mark\` just before its tag and its bytes' arrival (Resource Timing); the paint is the Element Timing API's \`renderTime\` for the \`<img>\`. ${s.toVisible['widget-inline'].length} runs per variant, shuffled together. The floor is the round trip of an empty request to the same mock service from the same pages, ${r.floor.startup.length} samples taken between the runs: median ${f2(floorStart)} ms.`,
    table(
      ['Script start → QR painted, ms', 'median', 'p95', 'IQR', 'min–max', 'median ÷ floor'],
      variants.map((v) => [VARIANTS[v].label, ...spread(s.toVisible[v]), f1(median(s.toVisible[v]) / floorStart)]),
    ),
    'Where the time goes (medians, ms). The challenge request includes its CORS preflight; the service renders the PNGs while creating the challenge when inline data is asked for, and on the image request otherwise.',
    table(
      ['', 'script start → request', 'request', 'of which the service', 'answer → painted'],
      variants.map((v) => [
        VARIANTS[v].label,
        f1(median(s.untilRequest[v])),
        f1(median(s.request[v])),
        f1(median(s.serviceTime[v])),
        f1(median(s.afterResponse[v])),
      ]),
    ),
    preconnectNote(r),
    `Main-thread time to evaluate the script and mount one widget: the \`EvaluateScript\` slice of a Chromium trace (compile, run, and everything the script does synchronously, which includes mounting), in ${s.evaluate.widget.wall.length} separate traced runs per script. Wall time includes waiting for a core while the browser, the network service and the demo run on the other; CPU is the main thread's own time.`,
    table(
      ['Evaluate + mount, ms', 'wall median', 'wall p95', 'CPU median', 'CPU p95', 'CPU min–max'],
      (['widget', 'baseline'] as const).map((w) => {
        const { wall, cpu } = s.evaluate[w]
        return [
          w === 'widget' ? 'widget' : 'naive baseline',
          f2(median(wall)),
          f2(percentile(wall, 95)),
          f2(median(cpu)),
          f2(percentile(cpu, 95)),
          `${f2(Math.min(...cpu))}–${f2(Math.max(...cpu))}`,
        ]
      }),
    ),
    `Where the widget's evaluation goes: V8's sampling profiler (100 µs) over ${s.evaluate.widget.wall.length} more first visits, samples during evaluation only, by our function (its place in src/, through the source map) or the browser API it called. Shares only: the profiler slows everything.`,
    table(
      ['Share', 'What'],
      s.profile.slice(0, 10).map((p) => [`${(p.share * 100).toFixed(0)} %`, `\`${p.what}\``]),
    ),
  )

  const busy = r.busyPage
  const observer = observerCost(busy)
  say(
    '### The cost to a page that keeps changing',
    `The CDN build watches the whole document so that single-page apps can add and remove widgets; each batch of changes searches the nodes it added where a record's parent has an element child, and sweeps the mounted widgets then; a mounted element that leaves the page is swept in the frame after, when a ResizeObserver hears it lose its box. Here a page of ${bytes(busy.nodes)} list items (not rendered, so that its layout does not drown the figure) changes one item's text every animation frame, with and without the widget, and the same page stands still, with and without it; ${busy.script.busy.length} fresh runs of each, ${busy.windowMs / 1000} s windows, main-thread time from Chromium's counters (\`Performance.getMetrics\`), medians in ms per second.`,
    table(
      ['Page', 'script, ms/s', 'all tasks, ms/s'],
      (['busy', 'busy+embed', 'busy+observer', 'still', 'still+embed'] as const)
        .filter((name) => busy.script[name]?.length)
        .map((name) => [
          {
            busy: 'changing every frame',
            'busy+embed': 'changing every frame, with the widget',
            'busy+observer': 'changing every frame, with an observer that does nothing',
            still: 'standing still',
            'still+embed': 'standing still, with the widget',
          }[name],
          f2(median(busy.script[name])),
          f1(median(busy.tasks[name])),
        ]),
    ),
    `What the widget adds to the changing page beyond what it adds to the still one (its poll and countdown) is the observer's work: ${f2(observer.perSecond)} ms of script per second, ${f1(observer.perBatch * 1000)} µs per batch at ${f1(observer.batchesPerSecond)} batches a second.` +
      (observer.floor === undefined
        ? ''
        : ` An observer of the same changes that does nothing costs the page ${f2(observer.floor)} ms of script per second: what observing costs at all.`) +
      (observer.callback === undefined
        ? ''
        : ` The widget's callback itself, timed in the page, took ${observer.callback.toFixed(3)} ms per second, where an empty one timed alike reads ${observer.timing?.toFixed(3)} ms.`),
  )

  const runs = r.signToNavigation.runs
  const of = (who: 'widget' | 'baseline') => runs.filter((run) => run.who === who)
  const w = of('widget')
  const b = of('baseline')
  const toNav = (list: typeof runs) => list.map((run) => run.toNavigation)
  say(
    '## 3. Sign to navigation',
    `From the mock service marking the challenge signed to the browser starting the navigation the controller asked for. Both ends are stamped by the bench process, which runs the demo, on one clock: *signed* is the moment the service has written its answer to the sign knob (it marks the challenge signed and wakes held polls in the same tick, just before); *navigation start* is the moment the landing page's request reaches the demo app, minus the browser's own lead from starting the navigation to sending that request (the landing page's Navigation Timing \`requestStart\`, a duration, so no offset between the two processes' clocks enters). Each signing lands at a uniformly random point of a poll: up to the hold (${r.signToNavigation.holdMs} ms) after the widget's poll reached the service, up to the interval (${BASELINE_INTERVAL_MS} ms) after the baseline's. The baseline polls the challenge's \`authTokenUrl\` (answered at once) every ${BASELINE_INTERVAL_MS} ms, then makes the same controller call; ${w.length} runs each, shuffled, each in a fresh context. Floor: ${r.floor.signIn.length} empty round trips taken between the runs, median ${f2(floorSign)} ms.`,
    table(
      ['Signed → navigation start, ms', 'p50', 'p95', 'IQR', 'min–max', 'p50 ÷ floor'],
      [
        ['widget (long poll)', ...spread(toNav(w)), f1(median(toNav(w)) / floorSign)],
        [`naive baseline (${BASELINE_INTERVAL_MS} ms timer)`, ...spread(toNav(b)), f1(median(toNav(b)) / floorSign)],
      ],
    ),
    `The baseline's p50 is ${f1(median(toNav(b)) / median(toNav(w)))} times the widget's, its p95 ${f1(percentile(toNav(b), 95) / percentile(toNav(w), 95))} times.`,
    "Where the time goes (medians, ms): the page learning of the signature and calling the controller, the controller (the demo app: it verifies the token and confirms the challenge at the service, one more round trip), and the page following the controller's answer. The page's own share of each step is on the browser's clock, from Resource Timing entries the page leaves behind when it goes: from the poll's last byte to the controller call's start, and from the controller's last byte to the next page's navigation start. The browser's lead from navigation start to the landing request is not in the figure.",
    table(
      [
        '',
        'signed → controller call arrives',
        'of it, the page',
        'controller',
        'its answer → navigation start',
        'of it, the page',
        'navigation start → request arrives',
      ],
      [w, b].map((list, i) => [
        i === 0 ? 'widget' : 'naive baseline',
        f1(median(list.map((x) => x.toController))),
        f1(median(list.map((x) => x.pageToCall))),
        f1(median(list.map((x) => x.controller))),
        f1(median(list.map((x) => x.toNavigation - x.toController - x.controller))),
        f1(median(list.map((x) => x.pageToNavigate))),
        f1(median(list.map((x) => x.toLandingRequest - x.toNavigation))),
      ]),
    ),
  )

  const l = r.load
  const cell = (hold: 'held' | 'immediate', name: keyof typeof l.perMinute.held) => `${f1(l.perMinute[hold][name])} (${l.counts[hold][name]})`
  say(
    '## 4. Load on the service',
    `Status requests per minute of an idle page (a code shown, nobody signing), counted by the service per challenge over a ${l.windowMs / 1000} s window and scaled to a minute (the count in brackets). Four pages at once, each in a window of its own; the hidden ones are in minimized windows, which Chromium reports as \`document.hidden\` (checked before and after each window). Background-tab timer throttling is on, as in a person's browser. First with the spec's 1 s hold, then with the service answering 204 at once. Challenges created during the windows: ${l.creations.held} and ${l.creations.immediate}.`,
    table(
      ['Page', '1 s hold', '204 at once', 'Goal'],
      [
        ['widget, visible', cell('held', 'widget-visible'), cell('immediate', 'widget-visible'), 'about 60 (spec); ≤ 60 at once'],
        ['widget, hidden', cell('held', 'widget-hidden'), cell('immediate', 'widget-hidden'), '0'],
        ['naive baseline, visible', cell('held', 'baseline-visible'), cell('immediate', 'baseline-visible'), '–'],
        ['naive baseline, hidden', cell('held', 'baseline-hidden'), cell('immediate', 'baseline-hidden'), '–'],
      ],
    ),
  )

  const mem = r.memory
  const ref = mem.samples.find((x) => x.cycle === REFERENCE_CYCLE)!
  const end = mem.samples.at(-1)!
  const { reference, last } = mem.composition
  say(
    '## 5. Memory',
    `One widget through ${mem.cycles} expire-and-refresh cycles (the expire knob, the widget's next poll hears 410 and it shows a new code), read after two forced garbage collections every 10 cycles; cycle ${REFERENCE_CYCLE} is the reference. The page runs on Playwright's fake clock, moved a second per cycle past the widget's once-a-second poll floor, so ${mem.cycles} cycles took ${f1(mem.durationMs / 1000)} s instead of minutes; the requests and the service are real. Noise: ${memory4(r)} B between repeated readings of the V8 heap at cycle ${REFERENCE_CYCLE}.`,
    table(
      ['', `cycle ${REFERENCE_CYCLE}`, `cycle ${end.cycle}`, 'growth'],
      [
        ['V8 heap used, B', bytes(ref.heapUsed), bytes(end.heapUsed), signed(end.heapUsed - ref.heapUsed)],
        ['of it (snapshot) JS objects, B', bytes(reference.javascript), bytes(last.javascript), signed(last.javascript - reference.javascript)],
        ['of it (snapshot) compiled code, shapes, B', bytes(reference.code), bytes(last.code), signed(last.code - reference.code)],
        ["browser's own objects (snapshot), B", bytes(reference.native), bytes(last.native), signed(last.native - reference.native)],
        ['DOM nodes (renderer)', ref.nodes, end.nodes, signed(end.nodes - ref.nodes)],
        ['elements in the document', ref.elements, end.elements, signed(end.elements - ref.elements)],
        ['event listeners', ref.listeners, end.listeners, signed(end.listeners - ref.listeners)],
      ],
    ),
    `Every 10 cycles, the V8 heap (B): ${mem.samples.map((x) => bytes(x.heapUsed)).join(', ')}; the renderer's DOM nodes: ${mem.samples.map((x) => x.nodes).join(', ')}.`,
    `What grew among the browser's own objects: ${(last.nativeGrowth ?? []).map((g) => `\`${g.name}\` ${signed(g.count)} (${signed(g.bytes)} B)`).join(', ')}. The refreshes caused ${mem.layoutShifts.count} layout shifts, summing to a layout-shift score of ${mem.layoutShifts.score.toFixed(4)}.`,
  )

  const rf = r.refresh
  say(
    '### Refreshing a code',
    `One widget page in a fresh context shows its first code; then ${rf.refreshes} times, a few seconds apart, the bench waits for the widget's next status poll to reach the service and expires the code at once (the expire knob), so that poll hears 410 and the widget creates and shows a new code. The service counts what arrives. The first poll of each new code is timed on the bench's clock from the service writing out the new challenge to that code's first status request arriving: it includes the page reading the answer and drawing the code. The old code's poll started just before the expiry, so a first poll held back by the old code's once-a-second floor would wait most of a second.`,
    table(
      ['', 'figure'],
      [
        ["CORS preflights (OPTIONS) for the page's first code", rf.firstOptions],
        [`CORS preflights for ${rf.refreshes} refreshes`, rf.refreshOptions],
        [`challenge requests (POST) for ${rf.refreshes} refreshes`, rf.refreshPosts],
        [
          'new challenge answered → its first poll arrives, ms: median, p95, min–max',
          `${f1(median(rf.firstPollDelay))}, ${f1(percentile(rf.firstPollDelay, 95))}, ${f1(Math.min(...rf.firstPollDelay))}–${f1(Math.max(...rf.firstPollDelay))}`,
        ],
      ],
    ),
  )

  const c = r.capacity
  say(
    '## 6. Mock service capacity',
    `The mock service alone in a child process (one core for it, one for the load from the bench), over loopback, its state ${c.heldStore === 'data directory' ? 'in a data directory (LMDB, as `npm start` keeps it: a signing is on disk before the sign knob answers; new challenges are written in batches and answer without waiting)' : 'in memory'}. Held: one status poll per challenge, all held at once (the hold set to ${c.holdMs / 1000} s so that none is answered unasked; the service's own poll counts confirm they all arrived), then ${c.held[0]?.wakeUps.length ?? 0} of them signed one after another, each wake-up timed from sending the sign knob to the poll's answer arriving at the client. Open files allowed: ${m.openFileLimit}.`,
    table(
      ['Held polls', 'opened in, ms', 'wake-up p50, ms', 'p99, ms', 'max, ms', 'service RSS, MiB'],
      c.held.map((h) => [bytes(h.held), f1(h.openMs), f2(median(h.wakeUps)), f2(percentile(h.wakeUps, 99)), f2(Math.max(...h.wakeUps)), f1(h.serviceRssMiB)]),
    ),
    'Challenge creation: a closed loop of clients, each sending the next `POST /v1/entity/challenges` when the last is answered, on a fresh connection each (the service closes every connection), bounded by time and count, against the service with its state in a data directory and then in memory, side by side. Not autocannon: it writes its next request onto the connection the service is closing, so its counts hold but its latencies do not. Service CPU is in cores: near 1 means the service, not the client, was the limit.',
    table(
      ['Request', 'state in', 'clients', 'requests', 'per second', 'latency p50, ms', 'p99, ms', 'errors', 'service CPU'],
      [...c.creation]
        .sort((a, b) => Number(b.imageData) - Number(a.imageData))
        .map((x) => [
          x.imageData ? 'with inline image data (as the embed asks)' : 'without image data',
          x.store,
          x.connections,
          bytes(x.requests),
          bytes(Math.round(x.perSecond)),
          f1(x.p50),
          f1(x.p99),
          x.errors + x.non2xx,
          f2(x.serviceCpu),
        ]),
    ),
  )

  if (r.abuse) say(...abuseSection(r.abuse))
  if (r.keys) say(...keysSection(r.keys))
  if (r.farm?.length) say(...farmSection(r.farm))

  out.push(...mutation)

  say('## Analysis', ANALYSIS_START)
  return out.join('\n') + '\n' + analysis + ANALYSIS_END + '\n'
}

const memory4 = (r: BenchResults) => bytes(memoryNoise(r))

/** What `<link rel="preconnect" crossorigin>` to the service did to start-up in this run. */
function preconnectNote(r: BenchResults): string {
  const s = r.startup
  const delta = (series: Record<StartupVariant, number[]>) => median(series['widget-preconnect']) - median(series['widget-inline'])
  const signedMs = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(1)} ms`
  return `With \`<link rel="preconnect" href="(the service's origin)" crossorigin>\` in the page's head, the widget's script start → QR painted moved by ${signedMs(delta(s.toVisible))} (median), its challenge request (preflight included) by ${signedMs(delta(s.request))}. Here the service is on loopback over plain HTTP, so a connection costs no DNS lookup, no TLS and next to no round trip: what a preconnect saves on a real network is not in this figure, and a difference of a few milliseconds here either way is within the run's noise (see the spread above).`
}
