/**
 * The channels whose advances fail now, kept as each starts and stops failing (OutageGuard): `/health`
 * answers from it without visiting every channel. Visiting 10,000 channels' objects on each health
 * check (every 10 s from the container's HEALTHCHECK alone) read memory each channel had left untouched
 * for seconds, as the VOD sweep's walk did (docs/benchmarks.md).
 */

/** A failing channel's guard (a channel added again under its id has another): it knows since when. */
interface Failing {
  readonly sinceMs: number | undefined;
}

export class FailingChannels {
  private readonly guards = new Set<Failing>();

  failed(guard: Failing): void {
    this.guards.add(guard);
  }

  recovered(guard: Failing): void {
    this.guards.delete(guard);
  }

  /** How many channels fail, and since when the oldest has (absent when none does). */
  summary(): { channels: number; sinceMs?: number } {
    let sinceMs: number | undefined;
    for (const { sinceMs: since } of this.guards)
      if (since !== undefined) sinceMs = Math.min(sinceMs ?? since, since);
    return sinceMs === undefined ? { channels: 0 } : { channels: this.guards.size, sinceMs };
  }
}
