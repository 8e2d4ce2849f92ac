// The end of `npm run mutate`: Stryker's report (reports/mutation/mutation.json, which git
// ignores) summed up in bench/mutation.json, which is kept, and which `npm run bench` shows in
// BENCHMARKS.md beside the reason each surviving mutant may stay (bench/mutation-reasons.json).
// `npm run mutate:server` does the same for service-auth/server, into bench/mutation-server.json.
import { execFileSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/** The part of Stryker's JSON report (mutation-testing-report-schema) read here. */
export interface StrykerReport {
  files: Record<string, { source: string; mutants: { mutatorName: string; replacement?: string; status: string; location: { start: { line: number } } }[] }>
}

/** A mutant no test detected. */
export interface Survivor {
  /** The file under src/, its line, and the code there. */
  file: string
  line: number
  code: string
  mutator: string
  replacement: string
  status: 'Survived' | 'NoCoverage'
}

export interface MutationSummary {
  date: string
  commit: string
  mutants: number
  killed: number
  timedOut: number
  survived: number
  noCoverage: number
  /** Detected (killed or timed out) over the valid mutants, in percent, as Stryker reports it. */
  score: number
  survivors: Survivor[]
}

/** Reasons a survivor may stay, by `reasonKey()`. */
export type Reasons = Record<string, string>

export const reasonKey = (survivor: Pick<Survivor, 'file' | 'mutator' | 'code' | 'replacement'>): string =>
  `${survivor.file} ${survivor.mutator}: ${survivor.code} → ${survivor.replacement}`

export function summarize(report: StrykerReport, { date, commit }: { date: string; commit: string }): MutationSummary {
  const counts: Record<string, number> = {}
  const survivors: Survivor[] = []
  for (const [path, file] of Object.entries(report.files)) {
    const lines = file.source.split('\n')
    for (const mutant of file.mutants) {
      counts[mutant.status] = (counts[mutant.status] ?? 0) + 1
      if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue
      const line = mutant.location.start.line
      survivors.push({
        file: path.replace(/^.*?src\//, 'src/'),
        line,
        code: (lines[line - 1] ?? '').trim(),
        mutator: mutant.mutatorName,
        replacement: mutant.replacement ?? '',
        status: mutant.status,
      })
    }
  }
  const killed = counts.Killed ?? 0
  const timedOut = counts.Timeout ?? 0
  const survived = counts.Survived ?? 0
  const noCoverage = counts.NoCoverage ?? 0
  const valid = killed + timedOut + survived + noCoverage
  return {
    date,
    commit,
    mutants: Object.values(counts).reduce((sum, n) => sum + n, 0),
    killed,
    timedOut,
    survived,
    noCoverage,
    score: valid ? ((killed + timedOut) / valid) * 100 : 0,
    survivors: survivors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line),
  }
}

/** What a run covers: the embed, or the controller helper; where its report and summary are, and its part of BENCHMARKS.md. */
export const SCOPES = {
  embed: {
    heading: '## Mutation testing',
    command: 'npm run mutate',
    over: "the embed's src/*.ts without the entries",
    report: 'reports/mutation/mutation.json',
    summary: 'bench/mutation.json',
  },
  server: {
    heading: '### service-auth/server',
    command: 'npm run mutate:server',
    over: 'src/server/*.ts without index.ts and resources.ts, with its unit tests and its run against the mock',
    report: 'reports/mutation/server.json',
    summary: 'bench/mutation-server.json',
  },
} as const
export type Scope = keyof typeof SCOPES

/** BENCHMARKS.md's section: the score, and each survivor with the reason it stays, or the lack of one. */
export function mutationSection(summary: MutationSummary | undefined, reasons: Reasons, scope: Scope = 'embed'): string[] {
  const { heading, command, over } = SCOPES[scope]
  if (!summary) return [heading, '', `_Not run yet: \`${command}\`._`, '']
  const unexplained = summary.survivors.filter((survivor) => !reasons[reasonKey(survivor)]).length
  return [
    heading,
    '',
    `\`${command}\` (Stryker 9.4 with its vitest runner, over ${over}) on ${summary.date.slice(0, 10)} at commit ${summary.commit}: ` +
      `${summary.mutants} mutants, ${summary.killed} killed and ${summary.timedOut} timed out, ${summary.survived} survived and ${summary.noCoverage} not covered. ` +
      `**Mutation score ${summary.score.toFixed(2)} %** (goal: at least 95 %, aim 98 %).` +
      (unexplained
        ? ` ${unexplained} survivor${unexplained == 1 ? ' has' : 's have'} no reason recorded yet: a test should kill ${unexplained == 1 ? 'it' : 'them'}.`
        : ' Every survivor left is explained below.'),
    '',
    '| Where | Mutant | Why it stays |',
    '|---|---|---|',
    ...summary.survivors.map(
      (survivor) =>
        `| ${survivor.file}:${survivor.line} | ${survivor.mutator}: \`${cell(survivor.code)}\` → \`${cell(survivor.replacement)}\` | ${cell(reasons[reasonKey(survivor)] ?? '**No reason recorded: a test should kill it.**')} |`,
    ),
    '',
  ]
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

const root = fileURLToPath(new URL('..', import.meta.url))
export const REASONS_PATH = root + 'bench/mutation-reasons.json'

/** The kept summary and reasons, if the scope's run ever ran. */
export async function readMutation(scope: Scope = 'embed'): Promise<{ summary?: MutationSummary; reasons: Reasons }> {
  const read = async <T>(path: string): Promise<T | undefined> => {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as T
    } catch {
      return undefined
    }
  }
  return { summary: await read<MutationSummary>(root + SCOPES[scope].summary), reasons: (await read<Reasons>(REASONS_PATH)) ?? {} }
}

// `tsx bench/mutation.ts [server]`: the embed's run, or the controller helper's.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const scope: Scope = process.argv[2] === 'server' ? 'server' : 'embed'
  const report = JSON.parse(await readFile(root + SCOPES[scope].report, 'utf8')) as StrykerReport
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
  const summary = summarize(report, { date: new Date().toISOString(), commit })
  await writeFile(root + SCOPES[scope].summary, JSON.stringify(summary, null, 2) + '\n')
  const { reasons } = await readMutation(scope)
  console.log(mutationSection(summary, reasons, scope).join('\n'))
}
