/**
 * Where playout logs live. Appending is conditional: item n+1 is written only if n is still the last
 * item, so when several instances race, the first wins and the others read. That keeps the log one
 * log. Leases keep the asset manager asked once per item: an instance asks (and appends) only while it
 * holds the channel's lease, a short compare-and-set record with an owner and an expiry
 * (engine-container/README.md, "High availability"). The in-memory store is the default for one
 * process; src/stores/ has the DynamoDB and Redis stores behind the same port.
 */
import type { PlayoutItem } from './item';

/** A channel's writer lease: held by one owner until it expires, is released, or is renewed. */
export interface LeaseOps {
  /** Takes the lease for ttlMs when it is free, expired, or already `owner`'s; false when another owner holds it. */
  acquireLease(channelId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends `owner`'s unexpired lease to ttlMs from now; false (and nothing changes) when it is not theirs. */
  renewLease(channelId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Frees the lease if `owner` holds it (another owner's lease is left alone). */
  releaseLease(channelId: string, owner: string): Promise<void>;
}

export interface PlayoutLogStore extends Partial<LeaseOps> {
  /**
   * Items with fromSeq <= seq < toSeq (from the first kept item, to the last, when absent), in seq
   * order. A store may ignore toSeq (callers drop what they did not ask for); ours honour it, so a
   * page of old items costs what it holds (start-over reads back in pages).
   */
  read(channelId: string, fromSeq?: number, toSeq?: number): Promise<PlayoutItem[]>;
  /**
   * The newest `count` items (fewer when the log holds fewer), in seq order: where an engine starting a
   * channel begins, reading back only as far as its live window needs (channel/log-tail.ts), not the
   * retained day.
   */
  readLast(channelId: string, count: number): Promise<PlayoutItem[]>;
  /** Appends `item` (whose seq must be expectedLastSeq + 1) only if expectedLastSeq is the last seq (-1: empty log). */
  append(channelId: string, item: PlayoutItem, expectedLastSeq: number): Promise<'appended' | 'conflict'>;
  /** Forgets items with seq < keepFromSeq (a hint: a store with TTLs may ignore it). */
  trim(channelId: string, keepFromSeq: number): Promise<void>;
  /** Closes connections the store opened itself (the engine calls it for stores it made from a URL). */
  close?(): Promise<void>;
  /** This engine is the log's only writer (soleWriterLog): a channel's view of it, once read, stays current. */
  readonly soleWriter?: boolean;
}

/** A store with leases. A store without them has one writer process (or accepts duplicate asks). */
export type LeasingLogStore = PlayoutLogStore & LeaseOps;

export const hasLeases = (store: PlayoutLogStore): store is LeasingLogStore =>
  typeof store.acquireLease === 'function' &&
  typeof store.renewLease === 'function' &&
  typeof store.releaseLease === 'function';

/**
 * The log of `store` without its leases, for a store no other engine writes: the engine's own in-memory
 * one. A lease there would only cost each run of each channel a take, a renewal timer, a re-read of the
 * log and a release; and a channel's view of the log, kept current by its own appends, needs no
 * re-reading (channel/log-tail.ts). Its lookahead stays as with leases (ChannelPlayout.leadMs).
 */
export function soleWriterLog(store: PlayoutLogStore): PlayoutLogStore {
  return {
    soleWriter: true,
    read: (channelId, fromSeq, toSeq) => store.read(channelId, fromSeq, toSeq),
    readLast: (channelId, count) => store.readLast(channelId, count),
    append: (channelId, item, expectedLastSeq) => store.append(channelId, item, expectedLastSeq),
    trim: (channelId, keepFromSeq) => store.trim(channelId, keepFromSeq),
  };
}

/** The append precondition every store checks: a caller bug, not a conflict. */
export function assertFollows(item: PlayoutItem, expectedLastSeq: number): void {
  if (item.seq !== expectedLastSeq + 1)
    throw new Error(`item seq ${item.seq} does not follow ${expectedLastSeq}`);
}

interface Log {
  items: PlayoutItem[];
  lastSeq: number;
  /** Its channel was removed (forget): it holds its last item only and has no share of the retention. */
  forgotten?: boolean;
}

interface Lease {
  owner: string;
  expiresAtMs: number;
}

/**
 * The most items the in-memory store keeps per channel for start-over, whatever the retention: a
 * 12 s loop airs 7,200 items a day, and 10,000 such channels kept 24 h would hold ~19 GB in one
 * process. 1,000 items is 3 h 20 min of such a loop, a day of 90 s items (docs/timeshift.md).
 */
export const MEMORY_RETAINED_ITEMS = 1000;
/**
 * The most items the in-memory store keeps for start-over across all its channels (about 280 MB at
 * ~280 bytes an item): each channel keeps its share, up to MEMORY_RETAINED_ITEMS. Without it one
 * process at 10,000 channels of a 12 s loop grew by 2.8 GB over 3 h 20 min, and every full collection
 * marked all of it. 1,000 channels keep 1,000 items each; 10,000 keep 100 (20 min of a 12 s loop, two
 * days of 30-minute VODs).
 */
export const MEMORY_RETAINED_ITEMS_TOTAL = 1_000_000;

export class InMemoryPlayoutLogStore implements LeasingLogStore {
  private readonly logs = new Map<string, Log>();
  private readonly leases = new Map<string, Lease>();
  private forgottenLogs = 0;

  /**
   * `clock` times lease expiry (the engine passes its own, so a test's fake clock expires leases too).
   * `retainMs`: a trim keeps items that ended less than this long ago (start-over reads them).
   */
  constructor(
    private readonly clock: () => number = Date.now,
    private readonly retainMs = 0,
  ) {}

  async read(channelId: string, fromSeq = 0, toSeq = Number.POSITIVE_INFINITY): Promise<PlayoutItem[]> {
    const log = this.logs.get(channelId);
    const first = log?.items[0];
    if (!log || !first || fromSeq > log.lastSeq) return [];
    // Kept items have consecutive seqs (appends follow the last seq, trims drop a prefix): index by seq.
    return log.items.slice(
      Math.max(0, fromSeq - first.seq),
      Math.max(0, Math.min(toSeq, log.lastSeq + 1) - first.seq),
    );
  }

  async readLast(channelId: string, count: number): Promise<PlayoutItem[]> {
    const items = this.logs.get(channelId)?.items ?? [];
    return count > 0 ? items.slice(-count) : [];
  }

  async append(
    channelId: string,
    item: PlayoutItem,
    expectedLastSeq: number,
  ): Promise<'appended' | 'conflict'> {
    assertFollows(item, expectedLastSeq);
    let log = this.logs.get(channelId);
    if (!log) {
      log = { items: [], lastSeq: -1 };
      this.logs.set(channelId, log);
    }
    if (log.lastSeq !== expectedLastSeq) return 'conflict';
    if (log.forgotten) {
      log.forgotten = false;
      this.forgottenLogs--;
    }
    // Frozen: the same object is shared with every reader in this process, and items never change.
    log.items.push(Object.freeze(item));
    log.lastSeq = item.seq;
    return 'appended';
  }

  async trim(channelId: string, keepFromSeq: number): Promise<void> {
    const log = this.logs.get(channelId);
    const first = log?.items[0];
    if (!log || !first) return;
    const trimmable = Math.min(Math.max(0, keepFromSeq - first.seq), log.items.length);
    let drop = trimmable;
    const horizon = this.clock() - this.retainMs;
    while (drop > 0 && log.items[drop - 1]!.startMs + log.items[drop - 1]!.durationMs > horizon) drop--;
    // Retained for start-over, but never more than the channel's share of them.
    drop = Math.max(drop, Math.min(trimmable, log.items.length - this.retainedItemsPerChannel()));
    log.items.splice(0, drop);
  }

  /** Each channel's share of MEMORY_RETAINED_ITEMS_TOTAL, at most MEMORY_RETAINED_ITEMS. */
  retainedItemsPerChannel(): number {
    const kept = this.logs.size - this.forgottenLogs;
    return Math.min(MEMORY_RETAINED_ITEMS, Math.floor(MEMORY_RETAINED_ITEMS_TOTAL / Math.max(1, kept)));
  }

  /**
   * A removed channel: its log keeps its last item only (added again, the channel goes on from it, as
   * after a restart) and no longer takes a share of the retention until it is appended to again.
   */
  forget(channelId: string): void {
    const log = this.logs.get(channelId);
    if (!log || log.forgotten) return;
    log.items.splice(0, Math.max(0, log.items.length - 1));
    log.forgotten = true;
    this.forgottenLogs++;
  }

  async acquireLease(channelId: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = this.clock();
    const lease = this.leases.get(channelId);
    if (lease && lease.owner !== owner && lease.expiresAtMs > now) return false;
    this.leases.set(channelId, { owner, expiresAtMs: now + ttlMs });
    return true;
  }

  async renewLease(channelId: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = this.clock();
    const lease = this.leases.get(channelId);
    if (!lease || lease.owner !== owner || lease.expiresAtMs <= now) return false;
    lease.expiresAtMs = now + ttlMs;
    return true;
  }

  async releaseLease(channelId: string, owner: string): Promise<void> {
    if (this.leases.get(channelId)?.owner === owner) this.leases.delete(channelId);
  }
}
