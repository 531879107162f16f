/** Summary statistics and number formatting for the benchmark tables. */

/** Summary of a sample. */
export interface Summary {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

/**
 * @param sorted ascending values
 * @param q quantile in [0, 1]
 * @returns the nearest-rank quantile
 */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

/**
 * @param values samples
 * @returns n, median (mean of the middle two for even n), nearest-rank p95, min, max
 */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mid = Math.floor(n / 2);
  const median = n === 0 ? Number.NaN : n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { n, median, p95: quantile(sorted, 0.95), min: sorted[0] ?? Number.NaN, max: sorted[n - 1] ?? Number.NaN };
}

/**
 * @param ms milliseconds
 * @returns a compact rendering (`—` for NaN)
 */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/**
 * @param s a summary
 * @returns `median / p95` text
 */
export function fmtMedianP95(s: Summary): string {
  return s.n === 0 ? '—' : `${fmtMs(s.median)} / ${fmtMs(s.p95)}`;
}

/**
 * @param x a ratio
 * @returns `1.23×` (`—` for NaN)
 */
export function fmtRatio(x: number): string {
  return Number.isFinite(x) ? `${x.toFixed(2)}×` : '—';
}
