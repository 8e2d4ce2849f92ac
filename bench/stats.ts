// Order statistics for the report. Medians and percentiles rather than means: these machines are
// shared and noisy, and one stalled sample must not move the headline figure.

export interface Summary {
  n: number
  median: number
  p95: number
  /** Interquartile range (p75 − p25): the spread a reader should expect between runs. */
  iqr: number
  min: number
  max: number
}

/** The p-th percentile (0..100) of `values`, interpolated linearly between closest ranks. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (p / 100) * (sorted.length - 1)
  const low = Math.floor(rank)
  const high = Math.ceil(rank)
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low)
}

export const median = (values: readonly number[]): number => percentile(values, 50)

export function summarize(values: readonly number[]): Summary {
  return {
    n: values.length,
    median: median(values),
    p95: percentile(values, 95),
    iqr: percentile(values, 75) - percentile(values, 25),
    min: values.length ? Math.min(...values) : NaN,
    max: values.length ? Math.max(...values) : NaN,
  }
}

/** `values` in a random order (Fisher–Yates), so that runs of two kinds interleave without a pattern. */
export function shuffled<T>(values: readonly T[]): T[] {
  const out = [...values]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/**
 * A 95 % interval for `statistic` of some samples, by the percentile bootstrap: resample each list
 * with replacement, `rounds` times, and take the 2.5th and 97.5th percentiles of the statistic. A
 * verdict that compares two medians a few milliseconds apart says more with it: the interval says
 * whether another run of the same build could read the other way. The generator is seeded, so a
 * report written again from the same samples reads the same.
 */
export function bootstrapInterval(samples: readonly (readonly number[])[], statistic: (resampled: number[][]) => number, rounds = 2000): [number, number] {
  if (samples.some((values) => values.length === 0)) return [NaN, NaN]
  const random = seeded(1)
  const estimates: number[] = []
  for (let round = 0; round < rounds; round++)
    estimates.push(statistic(samples.map((values) => values.map(() => values[Math.floor(random() * values.length)]!))))
  return [percentile(estimates, 2.5), percentile(estimates, 97.5)]
}

/** mulberry32: a small, well-mixed 32-bit generator, enough for resampling. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
