/**
 * A channel whose playout log store becomes unreachable stays on air: it backs off, logs at most a
 * line a minute, keeps its log ahead of the clock with the slate, and when the store returns writes
 * what it played alone to the shared log and goes back to its own content.
 */
import { describe, expect, it, vi } from 'vitest';
import { logEndMs } from '../../engine-container/src/playout/append';
import type { PlayoutItem } from '../../engine-container/src/playout/item';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';

/** The in-memory store behind a switch: while `down`, every call fails as a lost connection would. */
class SwitchableStore extends InMemoryPlayoutLogStore {
  down = false;
  calls = 0;
  /** The next append is written, then the store goes down before it answers (a timeout after the write). */
  dropAfterNextWrite = false;

  private check(): void {
    this.calls++;
    if (this.down)
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8100'), { code: 'ECONNREFUSED' });
  }

  override async read(channelId: string, fromSeq?: number): Promise<PlayoutItem[]> {
    this.check();
    return super.read(channelId, fromSeq);
  }

  override async readLast(channelId: string, count: number): Promise<PlayoutItem[]> {
    this.check();
    return super.readLast(channelId, count);
  }

  override async append(channelId: string, item: PlayoutItem, expectedLastSeq: number) {
    this.check();
    const result = await super.append(channelId, item, expectedLastSeq);
    if (this.dropAfterNextWrite) {
      this.dropAfterNextWrite = false;
      this.down = true;
      throw Object.assign(new Error('Command timed out'), { name: 'TimeoutError' });
    }
    return result;
  }

  override async trim(channelId: string, keepFromSeq: number): Promise<void> {
    this.check();
    return super.trim(channelId, keepFromSeq);
  }
}

const STEP_MS = 1000;

async function onAirChannel() {
  const world = fakeWorld();
  const store = new SwitchableStore();
  const am = new ScriptedAssetManager(() => vodResponse(world.a));
  const { core, clock } = makeCore(am, {
    fetch: world.origin.fetch,
    logStore: store,
    defaultSlateUri: world.slate,
  });
  await core.preloadSlate();
  const runtime = core.upsertChannel({ id: 'news', name: 'News' });
  await runtime.playout.whenOnAir(10_000);
  /** Runs the engine's tick over `ms` of fake time, a second at a time. */
  const run = async (ms: number) => {
    for (const end = clock.now + ms; clock.now < end; clock.now += STEP_MS) {
      await Promise.all(await core.kickDue());
    }
  };
  return { core, clock, store, playout: runtime.playout, run, world };
}

describe('a channel whose store is unreachable', () => {
  it('keeps its log ahead of the clock with the slate for two minutes', async () => {
    const { clock, store, playout, run } = await onAirChannel();
    store.down = true;
    for (let t = 0; t < 120_000; t += 10_000) {
      await run(10_000);
      expect(logEndMs(playout.tail.items)).toBeGreaterThan(clock.now);
    }
    const alone = playout.tail.pending;
    expect(alone.length).toBeGreaterThan(0);
    expect(alone.every((i) => i.kind === 'slate' && i.reason === 'store_unavailable')).toBe(true);
    expect(playout.failingSinceMs).toBeDefined();
  });

  it('retries with backoff rather than in a tight loop', async () => {
    const { store, run } = await onAirChannel();
    store.down = true;
    const before = store.calls;
    await run(120_000);
    // One attempt a second would be 120 calls or more; the backoff reaches 15–30 s between attempts.
    expect(store.calls - before).toBeLessThan(40);
  });

  it('logs the outage at most once a minute', async () => {
    const { core, store, run } = await onAirChannel();
    const error = vi.spyOn(core.log, 'error');
    store.down = true;
    await run(150_000);
    const lines = error.mock.calls.filter(([msg]) => String(msg).includes('retrying with backoff'));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(3);
  });

  it('writes what it played alone to the shared log once the store returns, with no sequence going back', async () => {
    const { store, playout, run } = await onAirChannel();
    store.down = true;
    await run(60_000);
    const alone = [...playout.tail.pending];
    const lastSeq = playout.tail.lastSeq;
    store.down = false;
    await run(40_000);
    expect(playout.tail.pending).toEqual([]);
    expect(playout.failingSinceMs).toBeUndefined();
    const shared = await store.read('news', alone[0]!.seq);
    expect(shared.slice(0, alone.length).map((i) => [i.seq, i.startMs, i.kind])).toEqual(
      alone.map((i) => [i.seq, i.startMs, i.kind]),
    );
    expect(playout.tail.lastSeq).toBeGreaterThanOrEqual(lastSeq);
  });

  it('goes on from an append the store wrote but never answered, and lists the same items once it returns', async () => {
    const { store, playout, run } = await onAirChannel();
    const seqBefore = playout.tail.lastSeq;
    store.dropAfterNextWrite = true;
    for (let t = 0; t < 60_000 && !store.down; t += 1_000) await run(1_000);
    expect(store.down).toBe(true);
    await run(30_000);
    const listed = (items: readonly PlayoutItem[]) =>
      items.map((i) => `${i.seq} ${i.startMs} ${i.kind} ${i.uri}`);
    // The item in doubt is the first after what the store had answered: played, not replaced by the slate.
    expect(playout.tail.items.find((i) => i.seq === seqBefore + 1)?.kind).toBe('vod');
    const alone = listed(playout.tail.items);
    store.down = false;
    await run(40_000);
    expect(playout.tail.pending).toEqual([]);
    const after = listed(await store.read('news', playout.tail.items[0]!.seq));
    // Every item this engine listed while alone and still in its window is the shared log's, unchanged.
    const firstAfter = after[0]!;
    expect(alone.slice(alone.indexOf(firstAfter))).toEqual(
      after.slice(0, alone.length - alone.indexOf(firstAfter)),
    );
  });

  it('goes back to its own content within one item after the store returns', async () => {
    const { store, playout, run } = await onAirChannel();
    store.down = true;
    await run(60_000);
    const lastAlone = playout.tail.lastSeq;
    store.down = false;
    await run(60_000);
    const after = (await store.read('news', lastAlone + 1)).map((i) => i.kind);
    expect(after[0]).toBe('vod');
  });

  it('reports the engine degraded while the outage lasts, and healthy once it is over', async () => {
    const { core, clock, store, run } = await onAirChannel();
    store.down = true;
    await run(5_000);
    expect(core.failing()).toEqual({ channels: 1, sinceMs: expect.any(Number) });
    expect(core.failing().sinceMs).toBeLessThanOrEqual(clock.now);
    store.down = false;
    await run(40_000);
    expect(core.failing()).toEqual({ channels: 0 });
  });

  it('no longer reports the engine degraded for a failing channel once the channel is removed', async () => {
    const { core, store, run } = await onAirChannel();
    store.down = true;
    await run(5_000);
    expect(core.failing().channels).toBe(1);
    core.removeChannel('news');
    await run(5_000);
    expect(core.failing()).toEqual({ channels: 0 });
  });

  it('counts the outage from its first failure to the store answering again, never restarting it', async () => {
    const { store, playout, run } = await onAirChannel();
    store.down = true;
    // Found at the channel's next advance (its log is ahead of the clock until then).
    for (let t = 0; t < 60_000 && playout.failingSinceMs === undefined; t += 1_000) await run(1_000);
    const since = playout.failingSinceMs;
    expect(since).toBeDefined();
    for (let t = 0; t < 90_000; t += 5_000) {
      await run(5_000);
      expect(playout.failingSinceMs).toBe(since);
    }
  });
});
