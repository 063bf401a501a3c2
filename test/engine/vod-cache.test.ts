import { describe, expect, it } from 'vitest';
import { buildParsedVod, type ParsedVod } from '../../engine-container/src/vod/parsed-vod';
import { VodCache } from '../../engine-container/src/vod/vod-cache';

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

  it('evicts a VOD once nobody has read or touched it for idleMs', async () => {
    const cache = cacheWithClock();
    await cache.vods.load('https://o/a.m3u8');
    sweepEveryMinute(cache, 5, () => cache.vods.touch('https://o/a.m3u8'));
    sweepEveryMinute(cache, 9);
    expect(cache.vods.size).toBe(1);
    sweepEveryMinute(cache, 2);
    expect(cache.vods.size).toBe(0);
    expect(cache.vods.get('https://o/a.m3u8')).toBeUndefined();
  });
});
