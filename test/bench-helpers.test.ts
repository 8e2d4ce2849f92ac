// @vitest-environment node
// The benchmark's pure helpers: its order statistics and its source-map reader. The benchmark
// itself (npm run bench) measures time and stays out of npm test.
import { transformSync } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { SourceMapper } from '../bench/source-map.js'
import { bootstrapInterval, median, percentile, shuffled, summarize } from '../bench/stats.js'

describe('bench statistics', () => {
  it('interpolates percentiles between closest ranks, whatever the order of the samples', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(percentile([10, 20, 30, 40, 50], 95)).toBe(48)
    expect(percentile([7], 99)).toBe(7)
    expect(percentile([], 50)).toBeNaN()
  })

  it('summarizes with the median, p95, interquartile range and extremes', () => {
    expect(summarize([1, 2, 3, 4, 5, 6, 7, 8, 9])).toEqual({ n: 9, median: 5, p95: 8.6, iqr: 4, min: 1, max: 9 })
  })

  it('bounds a difference of medians with a bootstrap interval that reads the same every time', () => {
    const spread = (centre: number) => Array.from({ length: 60 }, (_, i) => centre + ((i * 37) % 60) / 6)
    const difference = ([a, b]: readonly (readonly number[])[]) => median(a!) - median(b!)
    const apart = bootstrapInterval([spread(30), spread(20)], difference)
    expect(apart[0]).toBeGreaterThan(0)
    expect(apart[0]).toBeLessThan(10)
    expect(apart[1]).toBeGreaterThan(10)
    expect(bootstrapInterval([spread(30), spread(20)], difference)).toEqual(apart)
    const alike = bootstrapInterval([spread(20), spread(20)], difference)
    expect(alike[0]).toBeLessThan(0)
    expect(alike[1]).toBeGreaterThan(0)
    expect(
      bootstrapInterval(
        [
          [4, 4, 4],
          [1, 1],
        ],
        difference,
      ),
    ).toEqual([3, 3])
    expect(bootstrapInterval([[], [1]], difference)).toEqual([NaN, NaN])
  })

  it('shuffles without losing or adding a sample', () => {
    const values = Array.from({ length: 50 }, (_, i) => i)
    expect(shuffled(values).sort((a, b) => a - b)).toEqual(values)
  })
})

describe('bench source maps', () => {
  it('maps a place in minified code back to its source file and line', () => {
    const { code, map } = transformSync('export function first() { return 1 }\n\nexport function second() { return 2 }\n', {
      minify: true,
      sourcemap: 'external',
      sourcefile: '../src/example.ts',
      format: 'esm',
    })
    const mapper = new SourceMapper(JSON.parse(map))
    const line = code.split('\n').findIndex((text) => text.includes('return 2'))
    expect(mapper.lookup(line, code.split('\n')[line]!.indexOf('return 2'))).toEqual({ source: 'src/example.ts', line: 3 })
    expect(mapper.lookup(line, code.split('\n')[line]!.indexOf('return 1'))).toEqual({ source: 'src/example.ts', line: 1 })
    expect(mapper.lookup(99, 0)).toBeUndefined()
  })
})
