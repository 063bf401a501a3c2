/**
 * Several engines sharing one playout log ask the asset manager once per item between them: the
 * engine holding the channel's writer lease asks and appends, the others wait for its append. In one
 * process, with a shared fake clock for playout; leases expire by the store's clock (Date.now), as they
 * do across processes, faked too where a case times a lease against a slow ask. The failover cases run on real processes (failover-suite.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineOptions } from '../../engine-container/src/config';
import { InMemoryPlayoutLogStore, type PlayoutLogStore } from '../../engine-container/src/playout/log-store';
import type { VodResponse } from '../../engine-container/src/types';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';

/**
 * `count` engines on one store and one clock, each asking `answer` (a cursor: ep-0, ep-1, ...);
 * `storeOf` may wrap the store as one engine sees it.
 */
function engines(
  count: number,
  answer: () => Promise<VodResponse>,
  options: EngineOptions = {},
  storeOf: (store: PlayoutLogStore, engine: number) => PlayoutLogStore = (store) => store,
) {
  const world = fakeWorld();
  const store = new InMemoryPlayoutLogStore();
  const clock = { now: Date.UTC(2025, 0, 1) };
  const all = Array.from({ length: count }, (_, k) => {
    const am = new ScriptedAssetManager(answer);
    const logStore = storeOf(store, k);
    const made = makeCore(am, { fetch: world.origin.fetch, logStore, sharedClock: clock, ...options });
    return { am, core: made.core };
  });
  const appended: Array<{ seq: number; id: string }> = [];
  for (const { core } of all)
    core.events.subscribe((e) => {
      if (e.type === 'item_appended') appended.push(e.data as { seq: number; id: string });
    });
  const channels = all.map((e) => e.core.upsertChannel({ id: 'ch', name: 'ch' }));
  const calls = () => all.reduce((sum, e) => sum + e.am.requests.length, 0);
  /** Ids of the appended items in seq order. */
  const onAir = () => [...appended].sort((x, y) => x.seq - y.seq).map((i) => i.id);
  return { world, clock, channels, calls, onAir };
}

function cursor(uri: () => string, delayMs = 0) {
  let next = 0;
  return async () => {
    const id = `ep-${next++}`;
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return vodResponse(uri(), { id });
  };
}

/**
 * Runs `work` with timers and Date on a fake clock, moved on 10 ms at a time until it settles: the
 * lease's life, its renewals and a slow ask then keep their order however busy the machine is (on the
 * real clock a stall longer than the lease's life lets it lapse, which is what failover is for).
 */
async function onFakeTimers<T>(work: () => Promise<T>, limitMs = 60_000): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  try {
    let settled = false;
    const running = work().finally(() => {
      settled = true;
    });
    for (let ms = 0; !settled && ms < limitMs; ms += 10) await vi.advanceTimersByTimeAsync(10);
    if (!settled) throw new Error(`still running after ${limitMs} ms of fake time`);
    return await running;
  } finally {
    vi.useRealTimers();
  }
}

// A case on fake timers that failed mid-way must not leave them to the next file (one worker, no isolation).
afterEach(() => {
  vi.useRealTimers();
});

describe('engines sharing one playout log', () => {
  it('ask the asset manager exactly once per item between them, and serve the same playlists', async () => {
    let uri = '';
    const three = engines(
      3,
      cursor(() => uri),
    );
    uri = three.world.a;
    const { clock, channels } = three;
    for (const end = clock.now + 300_000; clock.now < end; clock.now += 2000) {
      await Promise.all(channels.map((c) => c.playout.advance()));
      const bodies = await Promise.all(channels.map((c) => c.playlists.mediaPlaylist('v0')));
      expect(new Set(bodies).size).toBe(1);
    }
    const onAir = three.onAir();
    expect(onAir.length).toBeGreaterThanOrEqual(15);
    expect(three.calls()).toBe(onAir.length);
    // Every episode the cursor handed out is on air once, in order: none skipped, none twice.
    expect(onAir).toEqual(onAir.map((_, k) => `ep-${k}`));
  }, 60_000);

  it('keep the lease through an ask slower than its life: the holder renews it, nobody asks twice', async () => {
    // A 200 ms lease, a 500 ms asset manager: without renewal the others would take over mid-ask. Made
    // on the fake clock, so the store's lease expiry reads it too.
    const two = await onFakeTimers(async () => {
      let uri = '';
      const made = engines(
        2,
        cursor(() => uri, 500),
        { volatileKeyTTL: 0.2 },
      );
      uri = made.world.a;
      await Promise.all(made.channels.map((c) => c.playout.advance()));
      return made;
    });
    const onAir = two.onAir();
    expect(onAir.length).toBeGreaterThanOrEqual(3);
    expect(two.calls()).toBe(onAir.length);
    expect(onAir).toEqual(onAir.map((_, k) => `ep-${k}`));
  }, 60_000);
  it('ask no more in a run once the lease lapsed while the holder stalled: another engine took it over', async () => {
    // Engine 0 stalls inside its first append (its lease's renewals cannot run) for five lease lives;
    // engine 1 takes the lapsed lease and plans meanwhile. Engine 0's run then goes on with the lease
    // it still believes it holds: asking again would spend an answer its append loses.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      let uri = '';
      let stalled = false;
      let takenOver: Promise<unknown> = Promise.resolve();
      const stallOnce = (store: PlayoutLogStore, engine: number): PlayoutLogStore =>
        engine > 0
          ? store
          : new Proxy(store, {
              get: (target, key) =>
                key === 'append'
                  ? async (...args: Parameters<PlayoutLogStore['append']>) => {
                      const appended = await target.append(...args);
                      if (!stalled) {
                        stalled = true;
                        vi.setSystemTime(Date.now() + 1000);
                        takenOver = made.channels[1]!.playout.advance();
                        await takenOver;
                      }
                      return appended;
                    }
                  : Reflect.get(target, key, target),
            });
      const made = engines(
        2,
        cursor(() => uri),
        { volatileKeyTTL: 0.2 },
        stallOnce,
      );
      uri = made.world.a;
      await made.channels[0]!.playout.advance();
      await takenOver;
      expect(stalled).toBe(true);
      const onAir = made.onAir();
      expect(onAir.length).toBeGreaterThanOrEqual(2);
      expect(made.calls()).toBe(onAir.length);
      expect(onAir).toEqual(onAir.map((_, k) => `ep-${k}`));
    } finally {
      vi.useRealTimers();
    }
  });
});
