/**
 * Writes each channel's as-run entries (engine-container/src/asrun/) to the as-run table as they
 * become final: whenever an item starts, what ended before it is built from the channel's log tail and
 * the entries not yet written are put. Every engine task does the same from the same shared log, so
 * they write the same items (a repeated put changes nothing), and a task that dies loses nothing.
 *
 * Writes go one at a time, and each carries the entries of every channel that started an item since
 * the last one, 25 to a request whatever their channel: at 10,000 channels items start hundreds of
 * times a second, and a request per channel's start cost the engine a fifth of a core in HTTP alone
 * (docs/benchmarks.md, twenty-first pass), and would hold the DynamoDB client's connections the playout
 * and the polling need.
 */
import type { AsRunStore, ChannelEntry } from '../../core/asrun/asrun-store';
import type { Logger } from '../../core/logger';
import { buildAsRun } from '../src/asrun/build-asrun';
import type { Engine } from '../src/index';

/** Entries one write carries at most (20 requests): the channels beyond wait for the next write. */
const ENTRIES_PER_WRITE = 500;

export class AsRunRecorder {
  /** Per channel, the start of the newest entry written: only later ones are put. */
  private readonly written = new Map<string, number>();
  /** Channels that started an item since their entries were last taken for a write. */
  private readonly due = new Set<string>();
  /** The writes in progress, one after the other until no channel is due. */
  private writing: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly engine: Engine,
    private readonly store: AsRunStore,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.unsubscribe ??= this.engine.events.subscribe((event) => {
      if (event.type === 'item_started') void this.record(event.channelId);
      if (event.type === 'channel_removed') {
        this.written.delete(event.channelId);
        this.due.delete(event.channelId);
      }
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.writing;
  }

  /** Writes the channel's final entries not yet written; resolves when they are (or the write failed). */
  record(channelId: string): Promise<void> {
    this.due.add(channelId);
    this.writing ??= this.writeDue().finally(() => {
      this.writing = undefined;
    });
    return this.writing;
  }

  private async writeDue(): Promise<void> {
    while (this.due.size > 0) {
      const taken = this.takeDue();
      if (taken.length === 0) continue;
      try {
        await this.store.put(taken);
        // The newest entry taken of each channel (a channel's entries are taken oldest first).
        for (const { channelId, entry } of taken)
          if (this.engine.core.channel(channelId)) this.written.set(channelId, entry.startMs);
      } catch (err) {
        // Left unwritten: the channel's next item start writes them, while its log tail still holds them.
        const channels = new Set(taken.map((e) => e.channelId)).size;
        this.log.warn('as-run entries not written', { channels, entries: taken.length, err });
      }
    }
  }

  /** The final entries not yet written of due channels, up to ENTRIES_PER_WRITE (whole channels). */
  private takeDue(): ChannelEntry[] {
    const taken: ChannelEntry[] = [];
    const now = this.engine.config.clock();
    for (const channelId of this.due) {
      if (taken.length >= ENTRIES_PER_WRITE) break;
      this.due.delete(channelId);
      const playout = this.engine.core.channel(channelId)?.playout;
      if (!playout) continue;
      const after = this.written.get(channelId) ?? Number.NEGATIVE_INFINITY;
      for (const entry of buildAsRun(playout.tail.items, now))
        if (entry.startMs > after) taken.push({ channelId, entry });
    }
    return taken;
  }
}
