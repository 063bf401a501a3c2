/**
 * Counters flushed as CloudWatch Embedded Metric Format lines on stdout (cloudMetrics option): one
 * JSON line per flush (every minute) with the counts of that minute; CloudWatch Logs turns them
 * into metrics without any API call.
 */
export const METRIC_NAMESPACE = 'onair/engine';

export type MetricName =
  | 'PlaylistRequests'
  | 'MasterRequests'
  | 'SlatesInserted'
  | 'VodErrors'
  | 'ItemsAppended'
  | 'AppendConflicts'
  /** Advances that failed (mostly an unreachable store): each is retried after a backoff. */
  | 'AdvanceFailures'
  /** A gauge rather than a count: channels in this process at flush time. */
  | 'Channels'
  /** A gauge: channels this process sees playing the slate at flush time (docs/design.md "Channel status"). */
  | 'ChannelsOnSlate'
  /** Channel status changes this process saw (starting, on_air, on_slate, or another reason). */
  | 'StatusChanges';

export class Metrics {
  private counts = new Map<MetricName, number>();
  private readonly gauges = new Map<MetricName, () => number>();

  inc(name: MetricName, by = 1): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + by);
  }

  /** A value read at every flush instead of counted (a gauge registered by whoever knows it). */
  gauge(name: MetricName, read: () => number): void {
    this.gauges.set(name, read);
  }

  /** Returns and resets the counts since the last call, with every gauge's current value. */
  take(): Map<MetricName, number> {
    const out = this.counts;
    this.counts = new Map();
    for (const [name, read] of this.gauges) out.set(name, read());
    return out;
  }
}

export function emfLine(
  counts: ReadonlyMap<string, number>,
  timestampMs: number,
  dimensions: Record<string, string> = {},
): string {
  const names = [...counts.keys()];
  return JSON.stringify({
    _aws: {
      Timestamp: timestampMs,
      CloudWatchMetrics: [
        {
          Namespace: METRIC_NAMESPACE,
          Dimensions: [Object.keys(dimensions)],
          Metrics: names.map((Name) => ({ Name, Unit: 'Count' })),
        },
      ],
    },
    ...dimensions,
    ...Object.fromEntries(counts),
  });
}
