/**
 * What every PlayoutLogStore promises, as one suite: conditional append, reads from a seq, trim, the
 * writer lease (acquire, renew, release, expiry, takeover) and racing writers. Run by
 * log-store-memory/dynamodb/redis.test.ts, each with a factory for its own store.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import type { PlayoutItem } from '../../engine-container/src/playout/item';
import type { LeasingLogStore } from '../../engine-container/src/playout/log-store';

export function item(seq: number, extra: Partial<PlayoutItem> = {}): PlayoutItem {
  return {
    seq,
    startMs: 1_700_000_000_000 + seq * 10_000,
    kind: 'vod',
    id: `ep-${seq}`,
    title: `Episode ${seq}`,
    uri: `https://origin.test/ep${seq}/master.m3u8`,
    offsetMs: 0,
    durationMs: 10_000,
    loop: 0,
    targetDurationS: 4,
    ladder: { variants: [] } as unknown as PlayoutItem['ladder'],
    segmentsBefore: { v0: seq * 5 },
    discontinuitiesBefore: { v0: seq },
    ...extra,
  };
}

/** A fresh channel id per test: stores are shared across a file's tests. */
const channel = () => `ch-${randomUUID().slice(0, 8)}`;

async function appendAll(store: LeasingLogStore, ch: string, count: number): Promise<void> {
  for (let seq = 0; seq < count; seq++) expect(await store.append(ch, item(seq), seq - 1)).toBe('appended');
}

export function logStoreContract(name: string, makeStore: () => LeasingLogStore): void {
  describe(`${name}: the playout log`, () => {
    it('reads back appended items as they were written, in seq order', async () => {
      const store = makeStore();
      const ch = channel();
      const first = item(0, { timedMetadata: { id: 'x', 'planned-duration': 10 }, reason: 'r' });
      expect(await store.append(ch, first, -1)).toBe('appended');
      expect(await store.append(ch, item(1), 0)).toBe('appended');
      expect(await store.read(ch)).toEqual([first, item(1)]);
    });

    it('reads nothing for a channel that has no log', async () => {
      expect(await makeStore().read(channel())).toEqual([]);
    });

    it('reads from a seq on', async () => {
      const store = makeStore();
      const ch = channel();
      await appendAll(store, ch, 5);
      expect((await store.read(ch, 3)).map((i) => i.seq)).toEqual([3, 4]);
      expect(await store.read(ch, 5)).toEqual([]);
    });

    it('reads a page between two seqs (the upper one excluded)', async () => {
      const store = makeStore();
      const ch = channel();
      await appendAll(store, ch, 6);
      expect((await store.read(ch, 1, 4)).map((i) => i.seq)).toEqual([1, 2, 3]);
      expect((await store.read(ch, 4, 4)).map((i) => i.seq)).toEqual([]);
      expect((await store.read(ch, 5, 99)).map((i) => i.seq)).toEqual([5]);
    });

    it('reads the newest items in seq order, and never the writer lease', async () => {
      const store = makeStore();
      const ch = channel();
      expect(await store.readLast(ch, 3)).toEqual([]);
      await appendAll(store, ch, 6);
      expect(await store.acquireLease(ch, 'engine-a', 60_000)).toBe(true);
      expect((await store.readLast(ch, 3)).map((i) => i.seq)).toEqual([3, 4, 5]);
      expect(await store.readLast(ch, 1)).toEqual([item(5)]);
      expect((await store.readLast(ch, 100)).map((i) => i.seq)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(await store.readLast(ch, 0)).toEqual([]);
    });

    it('refuses an append whose expected last seq is no longer the last', async () => {
      const store = makeStore();
      const ch = channel();
      await appendAll(store, ch, 3);
      expect(await store.append(ch, item(2, { id: 'late' }), 1)).toBe('conflict');
      expect(await store.append(ch, item(0, { id: 'late' }), -1)).toBe('conflict');
      expect((await store.read(ch)).map((i) => i.id)).toEqual(['ep-0', 'ep-1', 'ep-2']);
    });

    it('keeps every item from the trim point on', async () => {
      const store = makeStore();
      const ch = channel();
      await appendAll(store, ch, 6);
      await store.trim(ch, 4);
      expect((await store.read(ch, 4)).map((i) => i.seq)).toEqual([4, 5]);
      const kept = (await store.read(ch)).map((i) => i.seq);
      expect(kept.slice(-2)).toEqual([4, 5]);
      expect(await store.append(ch, item(6), 5)).toBe('appended');
    });

    it('lets exactly one of many racing appends at the same seq win', async () => {
      const store = makeStore();
      const ch = channel();
      await appendAll(store, ch, 2);
      const racers = Array.from({ length: 8 }, (_, k) => item(2, { id: `racer-${k}` }));
      const results = await Promise.all(racers.map((r) => store.append(ch, r, 1)));
      expect(results.filter((r) => r === 'appended')).toHaveLength(1);
      const winner = racers[results.indexOf('appended')]!;
      expect((await store.read(ch, 2)).map((i) => i.id)).toEqual([winner.id]);
    });
  });

  describe(`${name}: the writer lease`, () => {
    it('is taken by one owner and refused to another while it lives', async () => {
      const store = makeStore();
      const ch = channel();
      expect(await store.acquireLease(ch, 'a', 10_000)).toBe(true);
      expect(await store.acquireLease(ch, 'b', 10_000)).toBe(false);
      expect(await store.acquireLease(ch, 'a', 10_000)).toBe(true);
    });

    it('is taken by exactly one of many owners racing for it', async () => {
      const store = makeStore();
      const ch = channel();
      const owners = Array.from({ length: 8 }, (_, k) => `owner-${k}`);
      const won = await Promise.all(owners.map((o) => store.acquireLease(ch, o, 10_000)));
      expect(won.filter(Boolean)).toHaveLength(1);
    });

    it('is renewed only by its holder', async () => {
      const store = makeStore();
      const ch = channel();
      expect(await store.renewLease(ch, 'a', 10_000)).toBe(false);
      await store.acquireLease(ch, 'a', 10_000);
      expect(await store.renewLease(ch, 'a', 10_000)).toBe(true);
      expect(await store.renewLease(ch, 'b', 10_000)).toBe(false);
    });

    it('is freed by its holder and not by anyone else', async () => {
      const store = makeStore();
      const ch = channel();
      await store.acquireLease(ch, 'a', 10_000);
      await store.releaseLease(ch, 'b');
      expect(await store.acquireLease(ch, 'b', 10_000)).toBe(false);
      await store.releaseLease(ch, 'a');
      expect(await store.acquireLease(ch, 'b', 10_000)).toBe(true);
    });

    it('expires when its holder stops renewing, and is taken over; the old holder cannot renew or free it', async () => {
      const store = makeStore();
      const ch = channel();
      // Lives long enough for the next call to find it held even on a loaded machine (a store round
      // trip there can take hundreds of ms: DynamoDB Local and Redis share the cores with the run).
      await store.acquireLease(ch, 'dead', 1500);
      expect(await store.acquireLease(ch, 'heir', 10_000)).toBe(false);
      await waitFor(() => store.acquireLease(ch, 'heir', 10_000), Boolean, {
        what: 'the expired lease to be taken over',
        timeoutMs: 15_000,
        intervalMs: 50,
      });
      expect(await store.renewLease(ch, 'dead', 10_000)).toBe(false);
      await store.releaseLease(ch, 'dead');
      expect(await store.acquireLease(ch, 'third', 10_000)).toBe(false);
    });

    it('lives on while renewed, past its first expiry', async () => {
      const store = makeStore();
      const ch = channel();
      // A 2 s life renewed every quarter of it, for more than two lives: each renewal is well within
      // the life even when a store round trip takes hundreds of ms.
      await store.acquireLease(ch, 'a', 2000);
      const until = Date.now() + 4500;
      while (Date.now() < until) {
        expect(await store.renewLease(ch, 'a', 2000)).toBe(true);
        expect(await store.acquireLease(ch, 'b', 2000)).toBe(false);
        await new Promise((r) => setTimeout(r, 500));
      }
    });

    it('is kept apart from the log: reads never see it', async () => {
      const store = makeStore();
      const ch = channel();
      await store.acquireLease(ch, 'a', 10_000);
      expect(await store.read(ch)).toEqual([]);
      await appendAll(store, ch, 1);
      expect((await store.read(ch)).map((i) => i.seq)).toEqual([0]);
    });
  });
}
