// @vitest-environment node
// `npm run bench -- --report` writes the report again from bench/results.json alone: what it
// writes must be what a run wrote, so the committed record can be read again by a later version
// of the report without a new run, and says the same when nothing changed.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { writeReport } from '../bench/report.js'
import type { BenchResults } from '../bench/results.js'

const recorded = fileURLToPath(new URL('../bench/results.json', import.meta.url))

describe('the bench report, written again from its samples', () => {
  it('reads the same from the file it wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'))
    const [json, markdown] = [join(dir, 'results.json'), join(dir, 'BENCHMARKS.md')]
    // A run's samples have more digits than results.json keeps: the recorded ones, each moved by
    // less than the microsecond that the file rounds away.
    let n = 0
    const unrounded = (_: string, value: unknown) =>
      typeof value === 'number' && !Number.isInteger(value) ? value + (((n++ * 7919) % 999) - 499) / 1e6 : value
    const { verdicts: _, ...results } = JSON.parse(readFileSync(recorded, 'utf8'), unrounded) as BenchResults & { verdicts: unknown }
    await writeReport(results, json, markdown)
    const first = [readFileSync(json, 'utf8'), readFileSync(markdown, 'utf8')]
    const { verdicts: __, ...again } = JSON.parse(first[0]!) as BenchResults & { verdicts: unknown }
    await writeReport(again, json, markdown)
    expect([readFileSync(json, 'utf8'), readFileSync(markdown, 'utf8')]).toEqual(first)
    expect(first[1]).toMatch(
      /Script start → QR painted, widget median vs baseline \| [\d.]+ ms vs [\d.]+ ms \+ one task, [\d.]+ ms \(margin [+−±][\d.]+ ms, 95 % interval [+−±][\d.]+ ms to [+−±][\d.]+ ms\)/,
    )
  })
})
