/**
 * Pins the bytes of rendered media playlists: a fixed log (keys, fMP4 maps, byte ranges, a preroll,
 * timed metadata, a synthetic gap, a loop, segment durations off whole milliseconds) rendered at fixed
 * clocks for two renditions must equal test/engine/golden/render-pin.txt, written before the render
 * path was optimised. A change of output is a change of behaviour: regenerate the file deliberately
 * (`UPDATE_GOLDEN=1 npx vitest run test/engine/render-pin.test.ts`) and review its diff.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { computeWindow } from '../../engine-container/src/playout/window';
import { LivePlaylist } from '../../engine-container/src/render/live-playlist';
import { renderMediaPlaylist } from '../../engine-container/src/render/media-playlist';
import { gapUri, syntheticGapVod } from '../../engine-container/src/vod/synthetic-gap';
import { ladderOf, makeVod, TestLog } from './helpers/log';

const GOLDEN = fileURLToPath(new URL('./golden/render-pin.txt', import.meta.url));
const NTSC_MS = [2002.002, 2002.002, 1334.667];

function fixedLog(): TestLog {
  const log = TestLog.withLadder(ladderOf([1, 2]), 3);
  const two = (uri: string, segmentsMs: number[], media = {}) =>
    makeVod(uri, [
      { bandwidth: 1, segmentsMs, media },
      { bandwidth: 2, segmentsMs, media },
    ]);
  const key = '#EXT-X-KEY:METHOD=AES-128,URI="k1.bin"';
  log.play(two('https://o.test/enc/m.m3u8', [2000, 2000, 2000], { before: { 0: [key] } }));
  log.play(
    two('https://o.test/f/m.m3u8', [2000, 2000], {
      ext: 'm4s',
      before: { 0: ['#EXT-X-MAP:URI="init.mp4"'] },
    }),
  );
  log.play(
    two('https://o.test/r/m.m3u8', [2000, 2000], {
      before: { 0: ['#EXT-X-BYTERANGE:100@0'], 1: ['#EXT-X-BYTERANGE:50'] },
      uris: { 0: 'all.ts', 1: 'all.ts' },
    }),
  );
  const ad = two('https://o.test/ad/m.m3u8', [2000, 2000, 2000]);
  log.preroll(ad, 6000);
  log.play(two('https://o.test/show/m.m3u8', [2000, 2000]), {
    timedMetadata: { id: 'meta-1', 'x-title': 'Show "B"', rating: 7 },
  });
  log.play(two('https://o.test/ntsc/m.m3u8', NTSC_MS));
  log.loop(syntheticGapVod(gapUri(3000)), { durationMs: 6000 }, 'gap');
  log.loop(two('https://o.test/slate/m.m3u8', [1000, 1000]), { repetitions: 3 });
  log.play(two('https://o.test/end/m.m3u8', [2000, 2000, 2000]));
  return log;
}

/**
 * Every distinct playlist of both renditions, at a clock every 700 ms over the whole log; with `carry`,
 * each rendition's playlist is built from its last render as a live rendition's is (live-playlist.ts).
 */
function renderAll(carry = false): string {
  const log = fixedLog();
  const out: string[] = [];
  for (const key of ['v0', 'v1']) {
    let previous = '';
    const live = carry ? new LivePlaylist() : undefined;
    for (let t = log.t0; t <= log.endMs + 2000; t += 700) {
      const win = computeWindow(log.items, log.resolve, key, t, 8000);
      const text = live ? live.render(win).toString('utf8') : renderMediaPlaylist(win);
      if (text !== previous) out.push(`=== ${key} at t0+${t - log.t0} ms\n${text}`);
      previous = text;
    }
  }
  return out.join('');
}

describe('rendered media playlists', () => {
  it('stay byte-identical for the same log and clock', () => {
    const text = renderAll();
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it("stay byte-identical when built from the rendition's last render", () => {
    expect(renderAll(true)).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('keep only the segments of the last render, however long the log played', () => {
    const log = fixedLog();
    const live = new LivePlaylist();
    let listed = 0;
    for (let t = log.t0; t <= log.endMs + 2000; t += 700)
      listed = computeWindow(log.items, log.resolve, 'v0', t, 8000).segments.length;
    for (let t = log.t0; t <= log.endMs + 2000; t += 700)
      live.render(computeWindow(log.items, log.resolve, 'v0', t, 8000));
    expect(live.held).toBe(listed);
  });
});
