/** The percentiles `bench:mask` reports, from samples in milliseconds (`performance.now()` differences). */
export interface Distribution {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Microseconds. */
export function distribution(samples: readonly number[]): Distribution {
  const sorted = [...samples].sort((left, right) => left - right);
  const at = (quantile: number): number => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? NaN;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return {
    count: sorted.length,
    p50: at(0.5) * 1000,
    p90: at(0.9) * 1000,
    p99: at(0.99) * 1000,
    max: (sorted[sorted.length - 1] ?? NaN) * 1000,
    mean: mean * 1000,
  };
}
