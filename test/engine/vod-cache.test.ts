import { describe, expect, it } from 'vitest';
import { buildParsedVod, type ParsedVod } from '../../engine-container/src/vod/parsed-vod';
import { VodCache } from '../../engine-container/src/vod/vod-cache';
import { fakeWorld, makeCore, ORIGIN, ScriptedAssetManager, vodResponse } from './helpers/engine-fixtures';
import { simpleVod } from './helpers/playlists';

const MINUTE = 60_000;

function cacheWithClock() {
  const clock = { now: Date.UTC(2025, 0, 1) };
  let loads = 0;
  const vods = new VodCache(
    async (uri): Promise<ParsedVod> => {
      loads++;
      return buildParsedVod(uri, [], []);
    },
    { clock: () => clock.now, idleMs: 10 * MINUTE },
  );
  return { vods, clock, loads: () => loads };
}

/** Sweeps once a minute (as the engine does) until `minutes` have passed, calling `each` before each sweep. */
function sweepEveryMinute(
  cache: ReturnType<typeof cacheWithClock>,
  minutes: number,
  each: () => void = () => undefined,
) {
  for (let m = 0; m < minutes; m++) {
    cache.clock.now += MINUTE;
    each();
    cache.vods.sweep();
  }
}

describe('the VOD cache', () => {
  it('keeps a VOD that is read between sweeps, however long it has been loaded', async () => {
    const cache = cacheWithClock();
    await cache.vods.load('https://o/a.m3u8');
    sweepEveryMinute(cache, 30, () => cache.vods.get('https://o/a.m3u8'));
    expect(cache.vods.get('https://o/a.m3u8')).toBeDefined();
    expect(cache.loads()).toBe(1);
  });

  it('evicts a VOD once nobody has read it for idleMs', async () => {
    const cache = cacheWithClock();
    await cache.vods.load('https://o/a.m3u8');
    sweepEveryMinute(cache, 9);
    expect(cache.vods.size).toBe(1);
    sweepEveryMinute(cache, 2);
    expect(cache.vods.size).toBe(0);
    expect(cache.vods.get('https://o/a.m3u8')).toBeUndefined();
  });

  it('keeps a held VOD unread for any time, and evicts it idleMs after its last hold is released', async () => {
    const cache = cacheWithClock();
    await cache.vods.load('https://o/a.m3u8');
    cache.vods.hold('https://o/a.m3u8');
    cache.vods.hold('https://o/a.m3u8');
    sweepEveryMinute(cache, 30);
    cache.vods.release('https://o/a.m3u8');
    sweepEveryMinute(cache, 30);
    expect(cache.vods.size).toBe(1);
    cache.vods.release('https://o/a.m3u8');
    sweepEveryMinute(cache, 9);
    expect(cache.vods.size).toBe(1);
    sweepEveryMinute(cache, 2);
    expect(cache.vods.size).toBe(0);
  });
});

describe("the VODs of channels' logs", () => {
  /** A 15-minute VOD, then world.a for ever, on channel c of a core nobody requests playlists from. */
  async function longThenShort() {
    const world = fakeWorld();
    const long = simpleVod(`${ORIGIN}/long`, Array(90).fill(10_000), [
      { bandwidth: 300_000, width: 320, height: 180 },
    ]);
    world.origin.add(long.files);
    const am = new ScriptedAssetManager((call) => vodResponse(call === 0 ? long.uri : world.a));
    const { core, clock } = makeCore(am, { fetch: world.origin.fetch });
    core.upsertChannel({ id: 'c', name: 'c' });
    await core.advanceAll();
    /** Runs the engine's tick every second and its sweep every minute, for `minutes`. */
    const playFor = async (minutes: number) => {
      for (let s = 1; s <= minutes * 60; s++) {
        clock.now += 1000;
        await Promise.all(await core.kickDue());
        if (s % 60 === 0) core.sweep();
      }
    };
    const cached = () => [...core.vods.loaded()].map((v) => v.uri);
    return { core, playFor, cached, long: long.uri, short: world.a };
  }

  it('stay in the cache while the log plays them, though nobody reads them', async () => {
    const { playFor, cached, long } = await longThenShort();
    await playFor(12);
    expect(cached()).toEqual([long]);
  });

  it('are evicted idleMs after they left every log', async () => {
    const { playFor, cached, short } = await longThenShort();
    // The long item ends at 15 min; the live window keeps it a little longer; then 10 minutes unheld.
    await playFor(15 + 13);
    expect(cached()).toEqual([short]);
  });

  it("are evicted idleMs after their channel's removal", async () => {
    const { core, playFor, cached } = await longThenShort();
    core.removeChannel('c');
    await playFor(11);
    expect(cached()).toEqual([]);
  });
});
