/**
 * The window remembers what it computed per items array and rendition (playout/played-items.ts) and
 * where it last found the live item: whatever was asked before, it answers as a fresh computation does.
 */
import { describe, expect, it } from 'vitest';
import {
  computeWindow,
  MissingVodError,
  type TrackResolver,
} from '../../engine-container/src/playout/window';
import { ladderOf, makeVod, TestLog } from './helpers/log';

const vod = (uri: string, segmentsMs: number[]) => makeVod(uri, [{ bandwidth: 500_000, segmentsMs }]);

function channelLog(): TestLog {
  const log = TestLog.withLadder(ladderOf([500_000]), 3);
  for (let n = 0; n < 12; n++) log.play(vod(`https://o.test/${n % 3}/m.m3u8`, [2000, 3000, 2500, 1500]));
  return log;
}

/** The same question on a copy of the array: nothing remembered. */
const fresh = (log: TestLog, nowMs: number, resolve: TrackResolver = log.resolve) =>
  computeWindow([...log.items], resolve, 'v0', nowMs, 20_000);

describe('the remembered window', () => {
  it('answers every clock as a fresh computation, asked in any order', () => {
    const log = channelLog();
    const clocks = [30_000, 30_001, 45_500, 12_000, 99_000, 45_499, 2000, 0, 120_000, 61_000];
    for (const dt of clocks) {
      const now = log.t0 + dt;
      expect(computeWindow(log.items, log.resolve, 'v0', now, 20_000), String(dt)).toEqual(fresh(log, now));
    }
  });

  it('sees an item appended to the same array', () => {
    const log = channelLog();
    const end = log.endMs;
    computeWindow(log.items, log.resolve, 'v0', end - 1, 20_000);
    log.play(vod('https://o.test/late/m.m3u8', [4000, 4000]));
    const now = end + 6000;
    const win = computeWindow(log.items, log.resolve, 'v0', now, 20_000);
    expect(win.segments.at(-1)!.item.uri).toBe('https://o.test/late/m.m3u8');
    expect(win).toEqual(fresh(log, now));
  });

  it('asks again for a VOD that was not loaded, and uses it once it is', () => {
    const log = channelLog();
    let loaded = false;
    const resolve: TrackResolver = (item, key) => (loaded ? log.resolve(item, key) : undefined);
    const now = log.t0 + 40_000;
    expect(() => computeWindow(log.items, resolve, 'v0', now, 20_000)).toThrow(MissingVodError);
    loaded = true;
    expect(computeWindow(log.items, resolve, 'v0', now, 20_000)).toEqual(fresh(log, now));
  });
});
