// Where a run writes its report. A full run is the record: bench/results.json and BENCHMARKS.md,
// both committed. A --quick run is for trying the bench out, and must never overwrite the
// record, so it writes to bench/out/, which git ignores.
import { join } from 'node:path'

/** Relative to the repository root; .gitignore lists it. */
export const QUICK_OUTPUT_DIR = 'bench/out'

export interface ReportPaths {
  json: string
  markdown: string
}

export function reportPaths(repoRoot: string, quick: boolean): ReportPaths {
  return quick
    ? { json: join(repoRoot, QUICK_OUTPUT_DIR, 'results.json'), markdown: join(repoRoot, QUICK_OUTPUT_DIR, 'BENCHMARKS.md') }
    : { json: join(repoRoot, 'bench', 'results.json'), markdown: join(repoRoot, 'BENCHMARKS.md') }
}
