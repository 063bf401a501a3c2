import { describe, expect, it } from 'vitest';
import { cutBoundaryMs } from '../../engine-container/src/playout/append';
import {
  computeWindow,
  MissingVodError,
  type PlaylistWindow,
  type TrackResolver,
} from '../../engine-container/src/playout/window';
import { ladderOf, makeVod, TestLog } from './helpers/log';

const twoSecondVod = (uri: string, n = 10) =>
  makeVod(uri, [{ bandwidth: 500_000, segmentsMs: Array(n).fill(2000) }]);
const threeSecondVod = (uri: string, n = 6) =>
  makeVod(uri, [{ bandwidth: 500_000, segmentsMs: Array(n).fill(3000) }]);

function fill(log: TestLog, untilMs: number, vods: Array<ReturnType<typeof twoSecondVod>>) {
  for (let i = 0; log.endMs <= untilMs; i++) log.play(vods[i % vods.length]!);
}

const win = (log: TestLog, nowMs: number, windowMs = 60_000, key = 'v0') =>
  computeWindow(log.items, log.resolve, key, nowMs, windowMs);

describe('the window function', () => {
  it('lists only the segments that have ended by now', () => {
    const log = TestLog.withLadder(ladderOf([500_000]), 2);
    log.play(twoSecondVod('https://o.test/a/master.m3u8'));
    const w = win(log, log.t0 + 7000);
    expect(w.segments.map((s) => s.pdtMs + s.durationMs - log.t0)).toEqual([2000, 4000, 6000]);
    expect(w.mediaSequence).toBe(0);
  });

  it('keeps about windowMs of segments, never fewer than three', () => {
    const log = TestLog.withLadder(ladderOf([500_000]), 2);
    fill(log, log.t0 + 200_000, [twoSecondVod('https://o.test/a/master.m3u8')]);
    expect(win(log, log.t0 + 150_000, 20_000).segments).toHaveLength(10);
    expect(win(log, log.t0 + 150_000, 1000).segments).toHaveLength(3);
  });

  it('gives every segment its global index as media sequence number and dates it on the clock', () => {
    const log = TestLog.withLadder(ladderOf([500_000]), 3);
    fill(log, log.t0 + 400_000, [
      twoSecondVod('https://o.test/a/master.m3u8'),
      threeSecondVod('https://o.test/b/master.m3u8'),
    ]);
    const w = win(log, log.t0 + 300_500, 30_000);
    // Items alternate 20 s (10 segments) and 18 s (6 segments): 38 s and 16 segments per pair.
    for (const s of w.segments) {
      const pair = Math.floor((s.pdtMs - log.t0) / 38_000);
      const inPair = s.pdtMs - log.t0 - pair * 38_000;
      const index = pair * 16 + (inPair < 20_000 ? inPair / 2000 : 10 + (inPair - 20_000) / 3000);
      expect(s.index).toBe(index);
    }
    expect(w.mediaSequence).toBe(w.segments[0]!.index);
  });

  it('starts each item exactly where the played duration of the one before ends', () => {
    const log = TestLog.withLadder(ladderOf([500_000]), 3);
    fill(log, log.t0 + 100_000, [
      twoSecondVod('https://o.test/a/master.m3u8'),
      threeSecondVod('https://o.test/b/master.m3u8'),
    ]);
    log.items.slice(1).forEach((item, k) => {
      const before = log.items[k]!;
      expect(item.startMs).toBe(before.startMs + before.durationMs);
    });
  });

  it('keeps the media sequence continuous and the discontinuity sequence exact across VOD changes', () => {
    const log = TestLog.withLadder(ladderOf([500_000]), 3);
    fill(log, log.t0 + 200_000, [
      twoSecondVod('https://o.test/a/master.m3u8'),
      threeSecondVod('https://o.test/b/master.m3u8'),
    ]);
    let prev: PlaylistWindow | undefined;
    for (let now = log.t0 + 10_000; now < log.t0 + 180_000; now += 700) {
      const w = win(log, now, 10_000);
      if (prev) {
        const dropped = w.mediaSequence - prev.mediaSequence;
        expect(dropped).toBeGreaterThanOrEqual(0);
        const fellOff = prev.segments.slice(0, dropped).filter((s) => s.discontinuity).length;
        expect(w.discontinuitySequence - prev.discontinuitySequence).toBe(fellOff);
        for (const s of w.segments) {
          const same = prev.segments.find((p) => p.index === s.index);
          if (same) expect([same.segment.uri, same.pdtMs]).toEqual([s.segment.uri, s.pdtMs]);
        }
      }
      w.segments.forEach((s, i) => {
        if (i > 0) expect(s.index).toBe(w.segments[i - 1]!.index + 1);
        expect(s.discontinuity).toBe(s.position === 0 && s.item.seq > 0);
      });
      prev = w;
    }
  });

  it('cuts demuxed audio from the same clock with its own segment boundaries, without drift', () => {
    const vod = makeVod(
      'https://o.test/av/master.m3u8',
      [{ bandwidth: 500_000, segmentsMs: Array(6).fill(2000) }],
      [{ language: 'en', segmentsMs: [3000, 3000, 3000, 3000] }],
    );
    const log = TestLog.withLadder(
      ladderOf([500_000], { audio: [{ groupId: 'aud', language: 'en', name: 'en', default: 1 }] }),
      3,
    );
    fill(log, log.t0 + 24 * 3600_000, [vod]);
    const now = log.t0 + 24 * 3600_000 - 5000;
    const audio = win(log, now, 60_000, 'a:aud:en');
    const last = audio.segments[audio.segments.length - 1]!;
    expect(last.pdtMs + last.durationMs).toBeLessThanOrEqual(now);
    expect(now - (last.pdtMs + last.durationMs)).toBeLessThan(3000);
    for (const s of audio.segments) if (s.position === 0) expect(s.pdtMs).toBe(s.item.startMs);
    expect(last.index).toBe(Math.floor((last.pdtMs - log.t0) / 12_000) * 4 + last.position);
  });

  it('starts at the segment holding the offset and truncates to whole segments', () => {
    const log = TestLog.withLadder(ladderOf([500_000]), 2);
    const item = log.play(twoSecondVod('https://o.test/a/master.m3u8'), {
      offsetMs: 5000,
      desiredDurationMs: 5000,
    });
    expect([item.offsetMs, item.durationMs]).toEqual([4000, 6000]);
    const w = win(log, log.t0 + 60_000);
    expect(w.segments.map((s) => s.segment.uri.split('/').pop())).toEqual(['v0-2.ts', 'v0-3.ts', 'v0-4.ts']);
  });

  it('repeats a slate with a discontinuity at every repetition', () => {
    const log = TestLog.withLadder(ladderOf([500_000]), 2);
    log.loop(makeVod('https://o.test/slate/master.m3u8', [{ bandwidth: 1, segmentsMs: [2000, 2000] }]), {
      repetitions: 3,
    });
    const w = win(log, log.t0 + 60_000);
    expect(w.segments.map((s) => s.discontinuity)).toEqual([false, false, true, false, true, false]);
    expect(log.items[0]!.durationMs).toBe(12_000);
  });

  it('counts source discontinuities inside a VOD', () => {
    const vod = makeVod('https://o.test/d/master.m3u8', [
      {
        bandwidth: 1,
        segmentsMs: [2000, 2000, 2000, 2000],
        media: { before: { 2: ['#EXT-X-DISCONTINUITY'] } },
      },
    ]);
    const log = TestLog.withLadder(ladderOf([1]), 2);
    log.play(vod);
    log.play(vod);
    const w = win(log, log.t0 + 16_000, 3000);
    expect(w.segments.map((s) => s.index)).toEqual([5, 6, 7]);
    // Before index 5: the source tag of item 0 and the boundary tag of item 1.
    expect(w.discontinuitySequence).toBe(2);
    expect(w.segments.map((s) => s.discontinuity)).toEqual([false, true, false]);
  });

  it('lets a cut (reset, live cut-in) replace only segments no player can have seen', () => {
    const a = twoSecondVod('https://o.test/a/master.m3u8');
    const b = threeSecondVod('https://o.test/b/master.m3u8');
    const log = TestLog.withLadder(ladderOf([500_000]), 3);
    fill(log, log.t0 + 60_000, [a]);
    const now = log.t0 + 31_000;
    const before = win(log, now, 20_000);
    const at = cutBoundaryMs(log.items, now + 500, log.resolve);
    expect(at).toBe(log.t0 + 32_000);
    log.play(b, {}, at);
    const after = win(log, log.t0 + 40_000, 20_000);
    for (const s of before.segments) {
      const same = after.segments.find((x) => x.index === s.index);
      if (same) expect(same.segment.uri).toBe(s.segment.uri);
    }
    const cutIn = after.segments.find((s) => s.item.uri === b.uri)!;
    expect(cutIn.pdtMs).toBe(at);
    expect(cutIn.index).toBe(16);
    expect(cutIn.discontinuity).toBe(true);
  });
});

const memoVod = (uri: string, segmentsMs: number[]) => makeVod(uri, [{ bandwidth: 500_000, segmentsMs }]);

function channelLog(): TestLog {
  const log = TestLog.withLadder(ladderOf([500_000]), 3);
  for (let n = 0; n < 12; n++) log.play(memoVod(`https://o.test/${n % 3}/m.m3u8`, [2000, 3000, 2500, 1500]));
  return log;
}

/** The same question on a copy of the array: nothing remembered. */
const fresh = (log: TestLog, nowMs: number, resolve: TrackResolver = log.resolve) =>
  computeWindow([...log.items], resolve, 'v0', nowMs, 20_000);

/**
 * The window remembers what it computed per items array and rendition (playout/played-items.ts) and
 * where it last found the live item: whatever was asked before, it answers as a fresh computation does.
 */
describe('the remembered window', () => {
  it('answers every clock as a fresh computation, asked in any order', () => {
    const log = channelLog();
    const clocks = [30_000, 30_001, 45_500, 12_000, 99_000, 45_499, 2000, 0, 120_000, 61_000];
    for (const dt of clocks) {
      const now = log.t0 + dt;
      expect(computeWindow(log.items, log.resolve, 'v0', now, 20_000), String(dt)).toEqual(fresh(log, now));
    }
  });

  it('answers as a fresh computation as the clock moves on, in steps of any size, for windows of any size', () => {
    const ntsc = TestLog.withLadder(ladderOf([500_000]), 3);
    for (let n = 0; n < 12; n++)
      ntsc.play(memoVod(`https://o.test/${n % 3}/m.m3u8`, [2002.002, 1334.667, 3000]));
    for (const log of [channelLog(), ntsc])
      for (const windowMs of [1000, 6000, 8000, 20_000])
        for (const stepMs of [250, 1700, 9000]) {
          const items = [...log.items];
          for (let now = log.t0; now < log.endMs + 4000; now += stepMs) {
            const fresh = computeWindow([...log.items], log.resolve, 'v0', now, windowMs);
            expect(
              computeWindow(items, log.resolve, 'v0', now, windowMs),
              `${windowMs} ${now - log.t0}`,
            ).toEqual(fresh);
          }
        }
  });

  it('sees an item appended to the same array', () => {
    const log = channelLog();
    const end = log.endMs;
    computeWindow(log.items, log.resolve, 'v0', end - 1, 20_000);
    log.play(memoVod('https://o.test/late/m.m3u8', [4000, 4000]));
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
