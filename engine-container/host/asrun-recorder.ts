/**
 * Writes each channel's as-run entries (engine-container/src/asrun/) to the as-run table as they
 * become final: whenever an item starts, what ended before it is built from the channel's log tail and
 * the entries not yet written are put. Every engine task does the same from the same shared log, so
 * they write the same items (a repeated put changes nothing), and a task that dies loses nothing.
 */
import type { AsRunStore } from '../../core/asrun/asrun-store';
import type { Logger } from '../../core/logger';
import { buildAsRun } from '../src/asrun/build-asrun';
import type { Engine } from '../src/index';

export class AsRunRecorder {
  /** Per channel, the start of the newest entry written: only later ones are put. */
  private readonly written = new Map<string, number>();
  /** Per channel, the write in progress (one at a time, in order). */
  private readonly writing = new Map<string, Promise<void>>();
  private unsubscribe: (() => void) | undefined;
  /**
   * Every write of this task, one after the other: channels start items together (at start, 30 of them
   * within a second), and a burst of writes must not hold the DynamoDB client's connections the
   * playout and the polling need. One batch carries up to 25 entries.
   */
  private serial: Promise<void> = Promise.resolve();

  constructor(
    private readonly engine: Engine,
    private readonly store: AsRunStore,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.unsubscribe ??= this.engine.events.subscribe((event) => {
      if (event.type === 'item_started') void this.record(event.channelId);
      if (event.type === 'channel_removed') this.written.delete(event.channelId);
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await Promise.all(this.writing.values());
  }

  /** Writes the channel's final entries not yet written; resolves when they are (or the write failed). */
  record(channelId: string): Promise<void> {
    const previous = this.writing.get(channelId) ?? Promise.resolve();
    const next = previous.then(() => this.write(channelId));
    this.writing.set(channelId, next);
    void next.finally(() => {
      if (this.writing.get(channelId) === next) this.writing.delete(channelId);
    });
    return next;
  }

  private async write(channelId: string): Promise<void> {
    const playout = this.engine.core.channel(channelId)?.playout;
    if (!playout) return;
    const after = this.written.get(channelId) ?? Number.NEGATIVE_INFINITY;
    const entries = buildAsRun(playout.tail.items, this.engine.config.clock()).filter(
      (e) => e.startMs > after,
    );
    if (entries.length === 0) return;
    const put = this.serial.then(() => this.store.put(channelId, entries));
    this.serial = put.catch(() => undefined);
    try {
      await put;
      this.written.set(channelId, entries[entries.length - 1]!.startMs);
    } catch (err) {
      // Left unwritten: the next item start writes them, while the log tail still holds them.
      this.log.warn('as-run entries not written', { channelId, entries: entries.length, err });
    }
  }
}
