/**
 * A live rendition's playlist built from its last render (render/live-playlist.ts) must equal the whole
 * render of the same window byte for byte, whatever happened between two renders: the window slid by
 * one segment or by many, crossed item seams with discontinuities, keys and fMP4 maps (and started or
 * stopped listing fMP4), ad cues around a preroll, non-ASCII text, the clock stepping back, the log
 * changing under it (an item appended, one cut short, the same items read back as new objects).
 */
import { describe, expect, it } from 'vitest';
import { computeWindow } from '../../engine-container/src/playout/window';
import { LivePlaylist } from '../../engine-container/src/render/live-playlist';
import { renderMediaPlaylist } from '../../engine-container/src/render/media-playlist';
import { gapUri, syntheticGapVod } from '../../engine-container/src/vod/synthetic-gap';
import { ladderOf, makeVod, TestLog } from '../engine/helpers/log';

const two = (uri: string, segmentsMs: number[], media = {}) =>
  makeVod(uri, [
    { bandwidth: 1, segmentsMs, media },
    { bandwidth: 2, segmentsMs, media },
  ]);

function seamsLog(): TestLog {
  const log = TestLog.withLadder(ladderOf([1, 2]), 3);
  const key = '#EXT-X-KEY:METHOD=AES-128,URI="k1.bin"';
  log.play(two('https://o.test/enc/m.m3u8', [2000, 2000, 2000], { before: { 0: [key] } }));
  log.play(two('https://o.test/ts/m.m3u8', [2000, 2000, 2000, 2000]));
  log.play(
    two('https://o.test/f/m.m3u8', [2000, 2000], {
      ext: 'm4s',
      before: { 0: ['#EXT-X-MAP:URI="init.mp4"'] },
    }),
  );
  log.play(two('https://o.test/ts2/m.m3u8', [2000, 2000, 2000, 2000, 2000, 2000]));
  const ad = two('https://o.test/ad/m.m3u8', [2000, 2000, 2000]);
  log.preroll(ad, 6000);
  log.play(two('https://o.test/show/m.m3u8', [2000, 2000, 2000]), {
    timedMetadata: { id: 'meta-1', 'x-title': 'Café «B»', rating: 7 },
  });
  log.play(two('https://o.test/ntsc/m.m3u8', [2002.002, 2002.002, 1334.667]));
  log.loop(syntheticGapVod(gapUri(3000)), { durationMs: 6000 }, 'gap');
  log.loop(two('https://o.test/slate/m.m3u8', [1000, 1000]), { repetitions: 3 });
  return log;
}

/** Renders every rendition at each clock both ways; returns how each live render was built. */
function compare(log: TestLog, clocks: number[], windowMs: number, between?: (t: number) => void) {
  const built = { kept: 0, slid: 0, whole: 0 };
  const lives = new Map(log.keys.map((key) => [key, new LivePlaylist()]));
  for (const t of clocks) {
    between?.(t);
    for (const [key, live] of lives) {
      const win = computeWindow(log.items, log.resolve, key, t, windowMs);
      expect(live.render(win).toString('utf8'), `${key} at t0+${t - log.t0} ms`).toBe(
        renderMediaPlaylist(win),
      );
      built[live.built]++;
    }
  }
  return built;
}

const every = (log: TestLog, stepMs: number, untilMs = log.endMs + 4000): number[] => {
  const clocks: number[] = [];
  for (let t = log.t0; t <= untilMs; t += stepMs) clocks.push(t);
  return clocks;
};

describe('a live playlist built from its last render', () => {
  it('equals the whole render at every clock as the window slides over seams, maps, keys and ad cues', () => {
    for (const windowMs of [6000, 8000, 60_000]) {
      for (const stepMs of [250, 700, 2000, 4100]) {
        const log = seamsLog();
        const built = compare(log, every(log, stepMs), windowMs);
        expect(built.slid, `window ${windowMs} ms, step ${stepMs} ms`).toBeGreaterThan(0);
      }
    }
  });

  it('equals the whole render when the clock steps back or jumps past the whole window', () => {
    const log = seamsLog();
    const clocks = [10_000, 12_000, 9_000, 30_000, 31_000, 60_000, 61_000, 2_000].map((ms) => log.t0 + ms);
    const built = compare(log, clocks, 8000);
    expect(built.whole).toBeGreaterThan(0);
    expect(built.slid).toBeGreaterThan(0);
  });

  it('equals the whole render when the log changes under it: an item appended, a cut ahead or behind, the same items as new objects', () => {
    const log = seamsLog();
    const vod = two('https://o.test/late/m.m3u8', [2000, 2000]);
    const built = compare(log, every(log, 500, log.endMs + 12_000), 8000, (t) => {
      const at = t - log.t0;
      if (at === 20_000) log.play(vod, {}, log.t0 + 29_000);
      if (at === 30_000) log.items = log.items.map((item) => ({ ...item }));
      if (at === 40_000) log.play(vod);
      // Cut-ins in the past: listed segments give way to others, at first under the same sequence numbers.
      if (at === 46_000 || at === 52_000) {
        const listed = computeWindow(log.items, log.resolve, 'v0', t, 8000).segments;
        log.play(vod, {}, listed[at === 46_000 ? listed.length - 1 : 0]!.pdtMs);
      }
    });
    expect(built.slid).toBeGreaterThan(0);
    expect(built.kept).toBeGreaterThan(0);
  });

  it('hands back the same bytes while its window lists the same segments', () => {
    const log = seamsLog();
    const live = new LivePlaylist();
    const first = live.render(computeWindow(log.items, log.resolve, 'v0', log.t0 + 10_000, 8000));
    const again = live.render(computeWindow(log.items, log.resolve, 'v0', log.t0 + 10_500, 8000));
    expect(again).toBe(first);
  });
});
