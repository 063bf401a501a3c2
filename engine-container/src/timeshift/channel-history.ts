/**
 * One channel's retained playout log, as start-over reads it (docs/timeshift.md): only as far back as
 * a request asks, never past the retention. The first request reads the log from the channel's live
 * tail back to the item on air at its start, in pages sized from the items' mean length (the store's
 * bounded `read(from, to)`); an older start reads only the older items; and every
 * `sharedLogMaxAgeMs` the items appended since. Reads are serialized, so concurrent requests share them.
 */
import { itemEndMs, type PlayoutItem } from '../playout/item';
import type { PlayoutLogStore } from '../playout/log-store';

export interface HistoryDeps {
  store: PlayoutLogStore;
  clock: () => number;
  retentionMs: number;
  /** How old the newest read may be before items appended since are read. */
  maxAgeMs: number;
}

/** The fewest and most items one page reads back. */
export const PAGE_MIN_ITEMS = 16;
export const PAGE_MAX_ITEMS = 2000;

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
    while (!this.floor && this.items.length > 0 && itemEndMs(this.items[0]!) > untilMs) {
      const first = this.items[0]!;
      if (first.seq === 0) {
        this.floor = true;
        return;
      }
      // Sized from the oldest items read: the nearest to those wanted (a channel's item lengths drift).
      const near = Math.min(this.items.length, PAGE_MIN_ITEMS);
      const meanMs = (itemEndMs(this.items[near - 1]!) - first.startMs) / near;
      const wanted = Math.ceil((first.startMs - untilMs) / Math.max(meanMs, 1)) + 2;
      const size = Math.min(PAGE_MAX_ITEMS, Math.max(PAGE_MIN_ITEMS, wanted));
      const fromSeq = Math.max(0, first.seq - size);
      const page = (await this.deps.store.read(this.channelId, fromSeq, first.seq)).filter(
        (i) => i.seq >= fromSeq && i.seq < first.seq,
      );
      // Only the items that join on: an expired stretch ends what the store can give.
      let join = page.length;
      while (join > 0 && page[join - 1]!.seq === first.seq - (page.length - join) - 1) join--;
      const joined = page.slice(join);
      if (joined.length === 0 || join > 0 || joined[0]!.seq > fromSeq) this.floor = true;
      this.items = joined.concat(this.items);
    }
  }

  /** Drops items that ended before the horizon, but the last of them (the window's "item before"). */
  private forgetBefore(horizonMs: number): void {
    const keep = this.items.findIndex((i) => itemEndMs(i) > horizonMs);
    if (keep > 1) this.items = this.items.slice(keep - 1);
  }
}
