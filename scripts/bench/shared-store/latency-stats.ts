/** Latency summaries: nearest-rank percentiles over recorded request latencies (milliseconds). */

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

/** Nearest-rank percentile of an ascending array (q in 0..1); NaN when empty. */
export function percentile(sortedAsc: ArrayLike<number>, q: number): number {
  if (sortedAsc.length === 0) return Number.NaN;
  const rank = Math.min(sortedAsc.length, Math.max(1, Math.ceil(q * sortedAsc.length)));
  return sortedAsc[rank - 1]!;
}

export function summarize(latenciesMs: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(latenciesMs).sort();
  let sum = 0;
  for (const x of sorted) sum += x;
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
    meanMs: sorted.length ? sum / sorted.length : Number.NaN,
  };
}
