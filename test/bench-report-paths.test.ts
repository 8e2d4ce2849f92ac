// @vitest-environment node
// `npm run bench -- --quick` is for trying the bench out: it must leave the committed record
// (bench/results.json, BENCHMARKS.md) alone and write where git does not look.
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { QUICK_OUTPUT_DIR, reportPaths } from '../bench/report-paths.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const fromRoot = (path: string) => relative(root, path).split('\\').join('/')

describe('where the bench writes its report', () => {
  it('a full run writes the committed record', () => {
    const paths = reportPaths(root, false)
    expect([fromRoot(paths.json), fromRoot(paths.markdown)]).toEqual(['bench/results.json', 'BENCHMARKS.md'])
  })

  it('a quick run writes to bench/out/, never over the record', () => {
    const paths = reportPaths(root, true)
    expect([fromRoot(paths.json), fromRoot(paths.markdown)]).toEqual(['bench/out/results.json', 'bench/out/BENCHMARKS.md'])
  })

  it('git ignores what a quick run writes', () => {
    const ignored = readFileSync(join(root, '.gitignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
    expect(ignored).toContain(QUICK_OUTPUT_DIR + '/')
  })

  it('the bench run uses these paths, and says where it wrote', () => {
    const run = readFileSync(join(root, 'bench/run.ts'), 'utf8')
    expect(run).toContain('reportPaths(')
    expect(run).not.toMatch(/root\('bench\/results\.json'\)|root\('BENCHMARKS\.md'\)/)
  })
})
