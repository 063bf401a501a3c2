/**
 * Follows the engine's events and keeps each channel's status in the shared store, so the channel
 * and schedule APIs can show it (docs/design.md "Channel status"). Every engine task runs one.
 *
 * Writes happen only on a change (another status or reason), at most one per channel per
 * `minIntervalMs` (the latest status wins), at most `maxWritesPerFlush` per flush for the whole task,
 * so a fleet of flapping channels cannot flood the store; a failed write is kept and retried.
 */

import type { StatusRecord } from '../../../core/channel-status/status';
import type { StatusWriter } from '../../../core/channel-status/status-store';
import type { Logger } from '../../../core/logger';
import { HEALTHY, type OutageState, recordFailure } from '../../src/channel/outage/outage';
import type { EngineEvent, EngineEvents } from '../../src/events';
import type { Metrics } from '../../src/metrics';
import { isChange, type StartedItem, statusOfItem } from './derive-status';

export interface StatusTrackerOptions {
  events: Pick<EngineEvents, 'subscribe'>;
  writer: StatusWriter;
  metrics: Metrics;
  log: Logger;
  /** Is the channel's store failing on this task (its playout is on alone)? */
  storeFailing: (channelId: string) => boolean;
  clock?: () => number;
  flushMs?: number;
  minIntervalMs?: number;
  maxWritesPerFlush?: number;
}

interface Pending {
  record?: StatusRecord;
  remove?: true;
}

export class StatusTracker {
  /** The status this task last saw per channel. */
  private readonly seen = new Map<string, StatusRecord>();
  private readonly lastError = new Map<string, string>();
  /** Writes owed, in the order they were first owed. */
  private readonly pending = new Map<string, Pending>();
  private readonly lastWriteMs = new Map<string, number>();
  private outage: OutageState = HEALTHY;
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly clock: () => number;

  constructor(private readonly options: StatusTrackerOptions) {
    this.clock = options.clock ?? Date.now;
  }

  start(): void {
    this.unsubscribe = this.options.events.subscribe((event) => this.onEvent(event));
    this.options.metrics.gauge('ChannelsOnSlate', () => this.onSlate());
    this.timer = setInterval(() => void this.flush(), this.options.flushMs ?? 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    clearInterval(this.timer);
    await this.flushing;
  }

  /** What this task sees of a channel now. */
  status(channelId: string): StatusRecord | undefined {
    return this.seen.get(channelId);
  }

  onSlate(): number {
    let n = 0;
    for (const record of this.seen.values()) if (record.status === 'on_slate') n++;
    return n;
  }

  onEvent(event: EngineEvent): void {
    const id = event.channelId;
    switch (event.type) {
      case 'vod_error': {
        const code = typeof event.data.code === 'string' ? event.data.code : 'item_failed';
        this.lastError.set(id, code);
        // Nothing on air yet: the channel is still starting, and now we know what holds it up.
        const prev = this.seen.get(id);
        if (!prev || prev.status === 'starting') {
          const item = { seq: -1, kind: 'slate', startMs: Date.parse(event.time) };
          const next = {
            ...statusOfItem(item, { lastErrorCode: code, storeFailing: false }),
            status: 'starting' as const,
          };
          this.observe(id, next);
        }
        return;
      }
      case 'item_started': {
        const item = event.data as unknown as StartedItem;
        if (typeof item.seq !== 'number' || typeof item.startMs !== 'number') return;
        const next = statusOfItem(item, {
          lastErrorCode: this.lastError.get(id),
          storeFailing: this.options.storeFailing(id),
        });
        if (next.status === 'on_air') this.lastError.delete(id);
        this.observe(id, next);
        return;
      }
      case 'channel_removed':
        this.seen.delete(id);
        this.lastError.delete(id);
        this.lastWriteMs.delete(id);
        this.pending.set(id, { remove: true });
        return;
      default:
    }
  }

  private observe(id: string, next: StatusRecord): void {
    const prev = this.seen.get(id);
    // A later item of the same status changes nothing: no write.
    if (!isChange(prev, next)) return;
    this.seen.set(id, next);
    this.options.metrics.inc('StatusChanges');
    this.pending.set(id, { record: next });
  }

  /** Writes what is owed and allowed now; one flush at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.writeDue().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async writeDue(): Promise<void> {
    const { writer, log, minIntervalMs = 2000, maxWritesPerFlush = 50 } = this.options;
    const now = this.clock();
    const due: [string, Pending][] = [];
    for (const [id, p] of this.pending) {
      if (due.length >= maxWritesPerFlush) break;
      if (p.record && now - (this.lastWriteMs.get(id) ?? Number.NEGATIVE_INFINITY) < minIntervalMs) continue;
      due.push([id, p]);
    }
    for (const [id, p] of due) {
      // Taken before the write: a change seen meanwhile is owed again, not lost.
      this.pending.delete(id);
      try {
        if (p.remove) await writer.remove(id);
        else if (p.record) {
          await writer.write(id, p.record);
          this.lastWriteMs.set(id, now);
        }
        this.outage = HEALTHY;
      } catch (err) {
        if (!this.pending.has(id)) this.pending.set(id, p);
        const outcome = recordFailure(this.outage, now);
        this.outage = outcome.state;
        if (outcome.log)
          log.warn('channel status not written; retrying', {
            channelId: id,
            err,
            suppressed: outcome.suppressed,
          });
        return;
      }
    }
  }
}
