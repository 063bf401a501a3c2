/**
 * A channel's view of its playout log: the last few items, kept in memory so rendering never waits
 * for the store. Refreshed incrementally (items after the last known seq); `version` changes whenever
 * the items do, which invalidates rendered playlists.
 */
import type { PlayoutItem } from '../playout/item';
import type { PlayoutLogStore } from '../playout/log-store';

export class LogTail {
  items: PlayoutItem[] = [];
  version = 0;
  private readAtMs = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly store: PlayoutLogStore,
    private readonly channelId: string,
    private readonly clock: () => number,
  ) {}

  get last(): PlayoutItem | undefined {
    return this.items[this.items.length - 1];
  }

  get lastSeq(): number {
    return this.last?.seq ?? -1;
  }

  /** Resolves at the next change of the items (an append, a refresh or a trim). */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  isStale(ttlMs: number): boolean {
    return this.clock() - this.readAtMs >= ttlMs;
  }

  /** Reads items appended since (by other instances); concurrent callers share one read. */
  refresh(): Promise<void> {
    this.refreshing ??= this.read().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /**
   * A refresh that starts after this call: a read already in flight may predate a write that must be
   * seen (the writer lease's holder re-reads before it asks, and an append just before its lease
   * counts).
   */
  async reread(): Promise<void> {
    await this.refreshing?.catch(() => undefined);
    await this.refresh();
  }

  private async read(): Promise<void> {
    this.readAtMs = this.clock();
    const fresh = (await this.store.read(this.channelId, this.lastSeq + 1)).filter(
      (i) => i.seq > this.lastSeq,
    );
    if (fresh.length === 0) return;
    if (fresh[0]!.seq !== this.lastSeq + 1) {
      // We fell behind a trim (or the log was replaced): start over from what the store keeps.
      this.items = await this.store.read(this.channelId);
    } else {
      this.items = [...this.items, ...fresh];
    }
    this.bump();
  }

  async append(item: PlayoutItem): Promise<'appended' | 'conflict'> {
    const result = await this.store.append(this.channelId, item, this.lastSeq);
    // A refresh running meanwhile may already have read the item from the store: keep it once.
    if (result === 'appended' && item.seq > this.lastSeq) {
      this.items = [...this.items, item];
      this.bump();
    }
    return result;
  }

  /** Drops items before index `keep` here and (as a hint) in the store. */
  dropBefore(keep: number): void {
    if (keep <= 0) return;
    const keepFromSeq = this.items[keep]!.seq;
    this.items = this.items.slice(keep);
    this.bump();
    this.store.trim(this.channelId, keepFromSeq).catch(() => undefined);
  }

  private bump(): void {
    this.version++;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
