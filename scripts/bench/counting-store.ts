/**
 * A PlayoutLogStore that counts what it forwards: the benchmark's measure of store cost. Counts are
 * requests to the store (one read is one Query or ZRANGE however many items it returns).
 */
import type { PlayoutItem } from '../../engine-container/src/playout/item';
import type { LeasingLogStore, PlayoutLogStore } from '../../engine-container/src/playout/log-store';

export type StoreOp =
  | 'read'
  | 'append'
  | 'conflict'
  | 'trim'
  | 'acquire'
  | 'acquireRefused'
  | 'renew'
  | 'release';
export type StoreOps = Record<StoreOp, number>;

export const noOps = (): StoreOps => ({
  read: 0,
  append: 0,
  conflict: 0,
  trim: 0,
  acquire: 0,
  acquireRefused: 0,
  renew: 0,
  release: 0,
});

export class CountingStore implements LeasingLogStore {
  readonly ops = noOps();

  constructor(private readonly inner: LeasingLogStore & Pick<PlayoutLogStore, 'close'>) {}

  read(channelId: string, fromSeq?: number, toSeq?: number): Promise<PlayoutItem[]> {
    this.ops.read++;
    return this.inner.read(channelId, fromSeq, toSeq);
  }

  readLast(channelId: string, count: number): Promise<PlayoutItem[]> {
    this.ops.read++;
    return this.inner.readLast(channelId, count);
  }

  async append(channelId: string, item: PlayoutItem, expectedLastSeq: number) {
    const result = await this.inner.append(channelId, item, expectedLastSeq);
    this.ops[result === 'appended' ? 'append' : 'conflict']++;
    return result;
  }

  trim(channelId: string, keepFromSeq: number): Promise<void> {
    this.ops.trim++;
    return this.inner.trim(channelId, keepFromSeq);
  }

  async acquireLease(channelId: string, owner: string, ttlMs: number): Promise<boolean> {
    const got = await this.inner.acquireLease(channelId, owner, ttlMs);
    this.ops[got ? 'acquire' : 'acquireRefused']++;
    return got;
  }

  renewLease(channelId: string, owner: string, ttlMs: number): Promise<boolean> {
    this.ops.renew++;
    return this.inner.renewLease(channelId, owner, ttlMs);
  }

  releaseLease(channelId: string, owner: string): Promise<void> {
    this.ops.release++;
    return this.inner.releaseLease(channelId, owner);
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }
}
