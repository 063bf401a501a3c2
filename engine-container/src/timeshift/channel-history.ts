/**
 * One channel's retained playout log, as start-over reads it (docs/timeshift.md): only as far back as
 * a request asks, never past the retention. The first request reads the log from the channel's live
 * tail back to the item on air at its start, in pages (playout/log-read-back.ts); an older start reads only the older items; and every
 * `sharedLogMaxAgeMs` the items appended since. Reads are serialized, so concurrent requests share them.
 */
import { itemEndMs, type PlayoutItem } from '../playout/item';
import { readBack } from '../playout/log-read-back';
import type { PlayoutLogStore } from '../playout/log-store';

export interface HistoryDeps {
  store: PlayoutLogStore;
  clock: () => number;
  retentionMs: number;
  /** How old the newest read may be before items appended since are read. */
  maxAgeMs: number;
}

export class ChannelHistory {
  /** Consecutive seqs, oldest first. */
  private items: PlayoutItem[] = [];
  private readAtMs = Number.NEGATIVE_INFINITY;
  /** The store holds nothing older than items[0] (seq 0, or expired). */
  private floor = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** Changes when the log was found trimmed or replaced past what was read (what was read is dropped). */
  generation = 0;

  constructor(
    private readonly channelId: string,
    private readonly deps: HistoryDeps,
  ) {}

  /**
   * The log from the item before the one on air at fromMs to its end. `anchorSeq`: a seq the log holds
   * (the channel's live tail), where the first read starts; undefined: the channel has no log yet.
   */
  itemsFrom(fromMs: number, anchorSeq: number | undefined): Promise<PlayoutItem[]> {
    const run = this.queue.then(() => this.read(fromMs, anchorSeq));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async read(fromMs: number, anchorSeq: number | undefined): Promise<PlayoutItem[]> {
    const { clock, maxAgeMs, retentionMs } = this.deps;
    if (this.items.length === 0) {
      if (anchorSeq === undefined) return [];
      await this.readNewer(anchorSeq);
    } else if (clock() - this.readAtMs >= maxAgeMs) {
      await this.readNewer(this.items[this.items.length - 1]!.seq + 1);
    }
    const horizon = clock() - retentionMs;
    await this.readBack(Math.max(fromMs, horizon));
    this.forgetBefore(horizon);
    const first = this.items.findIndex((i) => itemEndMs(i) > fromMs);
    return first < 0 ? [] : this.items.slice(Math.max(0, first - 1));
  }

  private async readNewer(fromSeq: number): Promise<void> {
    this.readAtMs = this.deps.clock();
    const newer = (await this.deps.store.read(this.channelId, fromSeq)).filter((i) => i.seq >= fromSeq);
    if (newer.length === 0) return;
    const last = this.items[this.items.length - 1];
    if (last && newer[0]!.seq !== last.seq + 1) {
      // The log was trimmed or replaced past what was read: start again from what it keeps now.
      this.items = [];
      this.floor = false;
      this.generation++;
    }
    this.items = this.items.concat(newer);
  }

  /** Pages back until items[0] ended by `untilMs` (or the store has nothing older). */
  private async readBack(untilMs: number): Promise<void> {
    if (this.floor || this.items.length === 0) return;
    const back = await readBack(this.deps.store, this.channelId, this.items, untilMs);
    this.items = back.items;
    this.floor = back.floor;
  }

  /** Drops items that ended before the horizon, but the last of them (the window's "item before"). */
  private forgetBefore(horizonMs: number): void {
    const keep = this.items.findIndex((i) => itemEndMs(i) > horizonMs);
    if (keep > 1) this.items = this.items.slice(keep - 1);
  }
}
