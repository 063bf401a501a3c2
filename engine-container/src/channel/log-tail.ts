/**
 * A channel's view of its playout log: the last few items, kept in memory so rendering never waits
 * for the store. Its first read (an engine starting the channel, or one that fell behind a trim) takes
 * only the newest items, back to the first its live window can show and the item before it
 * (log-upkeep.ts: what a tail that has run keeps), never the day a store retains for start-over; then
 * it is refreshed incrementally (items after the last known seq). `version` changes whenever
 * the items do, which invalidates rendered playlists. While the store cannot be reached the channel
 * may extend its view alone (`appendLocal`: the slate, decided the same way by every engine, after an
 * item whose append may have been written before the store failed); the next refresh writes those
 * items to the store first, so the shared log never misses what players saw.
 */
import type { ChannelHeader } from '../playout/append';
import type { PlayoutItem } from '../playout/item';
import { PAGE_MIN_ITEMS, readBack } from '../playout/log-read-back';
import { assertFollows, type PlayoutLogStore } from '../playout/log-store';
import { tailHorizonMs } from '../playout/log-upkeep';

/** Failures of a request that never reached the store: a refused or unresolved connection, a queued command. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Whether a failed append may have been written all the same: any failure but one where the request
 * never left (a timeout or a dropped connection may come after the store wrote it).
 */
export function mayHaveWritten(err: unknown): boolean {
  const { code, name } = (err ?? {}) as { code?: unknown; name?: unknown };
  return !((typeof code === 'string' && NEVER_SENT_CODES.has(code)) || name === 'MaxRetriesPerRequestError');
}

export class LogTail {
  items: PlayoutItem[] = [];
  version = 0;
  /** The last items, decided here during a store outage and not yet in the store (oldest first). */
  pending: PlayoutItem[] = [];
  private readAtMs = Number.NEGATIVE_INFINITY;
  /** A read of the store has succeeded (a sole writer's view needs no other). */
  private readOnce = false;
  /** The channel was removed: a run still in flight asks and appends nothing more (close()). */
  closed = false;
  private refreshing: Promise<void> | undefined;
  private waiters: Array<() => void> = [];
  /** The header of the last item, made once per last item: asked in every wake and request. */
  private headerOf: { item: PlayoutItem; header: ChannelHeader } | undefined;

  constructor(
    private readonly store: PlayoutLogStore,
    private readonly channelId: string,
    private readonly clock: () => number,
    /** The live playlist's window (how far back the first read goes). */
    private readonly windowMs: number,
  ) {}

  get last(): PlayoutItem | undefined {
    return this.items[this.items.length - 1];
  }

  /** What the log's last item fixes for the channel (its ladder and target duration). */
  get header(): ChannelHeader | undefined {
    const item = this.last;
    if (!item) return undefined;
    if (this.headerOf?.item !== item)
      this.headerOf = { item, header: { ladder: item.ladder, targetDurationS: item.targetDurationS } };
    return this.headerOf.header;
  }

  get lastSeq(): number {
    return this.last?.seq ?? -1;
  }

  /** Resolves at the next change of the items (an append, a refresh or a trim). */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  isStale(ttlMs: number): boolean {
    // Read once, the view of a log no other engine writes is kept current by its own appends.
    if (this.store.soleWriter && this.readOnce) return false;
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
    // Reconcile first: reading after items the store does not have yet would skip the shared log's own.
    if (this.pending.length > 0 && (await this.flush()) === 'replaced') return;
    if (this.items.length === 0) {
      this.items = await this.readTail();
      this.readOnce = true;
      if (this.items.length > 0) this.bump();
      return;
    }
    const fresh = (await this.store.read(this.channelId, this.lastSeq + 1)).filter(
      (i) => i.seq > this.lastSeq,
    );
    this.readOnce = true;
    if (fresh.length === 0) return;
    if (fresh[0]!.seq !== this.lastSeq + 1) {
      // We fell behind a trim (or the log was replaced): start over from the store's newest items.
      this.items = await this.readTail();
    } else {
      this.items = [...this.items, ...fresh];
    }
    this.bump();
  }

  /** The store's newest items, back to the first the live window can show and the item before it. */
  private async readTail(): Promise<PlayoutItem[]> {
    const newest = await this.store.readLast(this.channelId, PAGE_MIN_ITEMS);
    const last = newest[newest.length - 1];
    if (!last) return [];
    const horizonMs = tailHorizonMs(this.clock(), this.windowMs, last.targetDurationS);
    return (await readBack(this.store, this.channelId, newest, horizonMs)).items;
  }

  /**
   * The channel was removed: its run in flight appends nothing more. A channel added again under its id
   * has a view of its own, which (of a sole writer's log) is never re-read after its first read.
   */
  close(): void {
    this.closed = true;
  }

  async append(item: PlayoutItem): Promise<'appended' | 'conflict'> {
    if (this.closed) return 'conflict';
    let result: 'appended' | 'conflict';
    try {
      result = await this.store.append(this.channelId, item, this.lastSeq);
    } catch (err) {
      // A store that fails to answer may still have written the item (a timeout after the write). Kept
      // here as pending, the channel goes on from it, and the next flush writes it or finds it written;
      // going on from before it would list the slate at its seq while the shared log holds it.
      if (item.seq > this.lastSeq && mayHaveWritten(err)) this.appendLocal(item);
      throw err;
    }
    // A refresh running meanwhile may already have read the item from the store: keep it once.
    if (result === 'appended' && item.seq > this.lastSeq) {
      this.items = [...this.items, item];
      this.bump();
    }
    return result;
  }

  /** Extends this view alone (the store is unreachable); written to the store by the next refresh. */
  appendLocal(item: PlayoutItem): void {
    assertFollows(item, this.lastSeq);
    this.items = [...this.items, item];
    this.pending = [...this.pending, item];
    this.bump();
  }

  /**
   * Writes the pending items to the store, in order. An item another engine already wrote is taken as
   * written when it is the same item (the slate every engine decides alike); when the shared log holds
   * other items at those seqs, it wins and this view adopts them ('replaced'). Throws while the store
   * is still unreachable (the items stay pending).
   */
  async flush(): Promise<'flushed' | 'replaced'> {
    while (this.pending.length > 0) {
      const item = this.pending[0]!;
      if ((await this.store.append(this.channelId, item, item.seq - 1)) === 'conflict') {
        const shared = await this.store.read(this.channelId, item.seq, item.seq + 1);
        if (!sameItem(shared[0], item)) {
          // The shared log as an engine starting the channel reads it (not all it retains).
          this.items = await this.readTail();
          this.pending = [];
          this.bump();
          return 'replaced';
        }
      }
      this.pending = this.pending.slice(1);
    }
    return 'flushed';
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

/** Same placement and content (stores may return an item's fields in another order). */
function sameItem(a: PlayoutItem | undefined, b: PlayoutItem): boolean {
  return (
    a !== undefined &&
    a.seq === b.seq &&
    a.startMs === b.startMs &&
    a.durationMs === b.durationMs &&
    a.uri === b.uri &&
    a.kind === b.kind &&
    a.offsetMs === b.offsetMs
  );
}
