/**
 * One channel's record of failing advances (mostly an unreachable store), on the pure policy of
 * outage.ts: when to retry, and one log line per minute at most while the outage lasts.
 */
import type { Logger } from '../../../../core/logger';
import type { Metrics } from '../../metrics';
import type { FailingChannels } from './failing-channels';
import { backoffMs, HEALTHY, type OutageState, recordFailure } from './outage';

export class OutageGuard {
  private state: OutageState = HEALTHY;
  /** When the store may be tried again (the backoff after the last failure). */
  private nextRetryMs = Number.NEGATIVE_INFINITY;
  /** The channel was removed: a failure of its last run no longer counts the channel as failing. */
  private closed = false;

  constructor(
    private readonly channelId: string,
    private readonly deps: { log: Logger; metrics: Metrics; clock: () => number; failing?: FailingChannels },
  ) {}

  get failing(): boolean {
    return this.state.failures > 0;
  }

  /** Since when advances fail, or undefined when healthy. */
  get sinceMs(): number | undefined {
    return this.failing ? this.state.sinceMs : undefined;
  }

  recovered(): void {
    if (!this.failing) return;
    const { sinceMs, failures } = this.state;
    this.deps.log.info('channel playout recovered', { channelId: this.channelId, sinceMs, failures });
    this.state = HEALTHY;
    this.nextRetryMs = Number.NEGATIVE_INFINITY;
    this.deps.failing?.recovered(this);
  }

  close(): void {
    this.closed = true;
    this.deps.failing?.recovered(this);
  }

  /** Is the backoff over (or was there no failure)? Before that, a wake only extends the log alone. */
  retryDue(): boolean {
    return this.deps.clock() >= this.nextRetryMs;
  }

  failed(err: unknown): void {
    const now = this.deps.clock();
    const outcome = recordFailure(this.state, now);
    this.state = outcome.state;
    this.nextRetryMs = now + backoffMs(this.state.failures);
    if (!this.closed) this.deps.failing?.failed(this);
    this.deps.metrics.inc('AdvanceFailures');
    if (!outcome.log) return;
    this.deps.log.error('channel playout failed; retrying with backoff', {
      channelId: this.channelId,
      err,
      failures: this.state.failures,
      sinceMs: this.state.sinceMs,
      suppressed: outcome.suppressed,
    });
  }

  /** The next wake: the end of the backoff, or sooner when the log kept alone needs extending. */
  wakeAtMs(extendAtMs: number): number {
    return Math.max(this.deps.clock(), Math.min(this.nextRetryMs, extendAtMs));
  }
}
