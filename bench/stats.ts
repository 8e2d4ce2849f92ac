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
