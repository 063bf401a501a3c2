/**
 * The channels whose advances fail now, and since when, kept as each starts and stops failing
 * (OutageGuard): `/health` answers from it without visiting every channel. Visiting 10,000 channels'
 * objects on each health check (every 10 s from the container's HEALTHCHECK alone) read memory each
 * channel had left untouched for seconds, as the VOD sweep's walk did (docs/benchmarks.md).
 */
export class FailingChannels {
  /** Per failing channel's guard (a channel added again under its id has another), since when it fails. */
  private readonly since = new Map<object, number>();

  failed(guard: object, sinceMs: number): void {
    if (!this.since.has(guard)) this.since.set(guard, sinceMs);
  }

  recovered(guard: object): void {
    this.since.delete(guard);
  }

  /** How many channels fail, and since when the oldest has (absent when none does). */
  summary(): { channels: number; sinceMs?: number } {
    let sinceMs: number | undefined;
    for (const since of this.since.values()) sinceMs = Math.min(sinceMs ?? since, since);
    return sinceMs === undefined ? { channels: 0 } : { channels: this.since.size, sinceMs };
  }
}
