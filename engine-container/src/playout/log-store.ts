/**
 * Where playout logs live. Appending is conditional: item n+1 is written only if n is still the last
 * item, so when several instances race, the first wins and the others read. That is the only
 * coordination high availability needs. The in-memory store is the default for one process; a
 * DynamoDB store implements the same three methods with a conditional put.
 */
import type { PlayoutItem } from './item';

export interface PlayoutLogStore {
  /** Items with seq >= fromSeq (all kept items when absent), in seq order. */
  read(channelId: string, fromSeq?: number): Promise<PlayoutItem[]>;
  /** Appends `item` (whose seq must be expectedLastSeq + 1) only if expectedLastSeq is the last seq (-1: empty log). */
  append(channelId: string, item: PlayoutItem, expectedLastSeq: number): Promise<'appended' | 'conflict'>;
  /** Forgets items with seq < keepFromSeq (a hint: a store with TTLs may ignore it). */
  trim(channelId: string, keepFromSeq: number): Promise<void>;
}

interface Log {
  items: PlayoutItem[];
  lastSeq: number;
}

export class InMemoryPlayoutLogStore implements PlayoutLogStore {
  private readonly logs = new Map<string, Log>();

  async read(channelId: string, fromSeq = 0): Promise<PlayoutItem[]> {
    const log = this.logs.get(channelId);
    const first = log?.items[0];
    if (!log || !first || fromSeq > log.lastSeq) return [];
    // Kept items have consecutive seqs (appends follow the last seq, trims drop a prefix): index by seq.
    return log.items.slice(Math.max(0, fromSeq - first.seq));
  }

  async append(
    channelId: string,
    item: PlayoutItem,
    expectedLastSeq: number,
  ): Promise<'appended' | 'conflict'> {
    if (item.seq !== expectedLastSeq + 1)
      throw new Error(`item seq ${item.seq} does not follow ${expectedLastSeq}`);
    let log = this.logs.get(channelId);
    if (!log) {
      log = { items: [], lastSeq: -1 };
      this.logs.set(channelId, log);
    }
    if (log.lastSeq !== expectedLastSeq) return 'conflict';
    // Frozen: the same object is shared with every reader in this process, and items never change.
    log.items.push(Object.freeze(item));
    log.lastSeq = item.seq;
    return 'appended';
  }

  async trim(channelId: string, keepFromSeq: number): Promise<void> {
    const log = this.logs.get(channelId);
    const first = log?.items[0];
    if (!log || !first) return;
    log.items.splice(0, Math.min(Math.max(0, keepFromSeq - first.seq), log.items.length));
  }
}
