/**
 * Catch-up in a real player: a programme that aired two hours ago (the channel's log filled on a fake
 * clock, then served on the real clock), asked for as `master.m3u8?start=<its start>&end=<its end>`.
 * hls.js takes it as a VOD (EXT-X-ENDLIST: `details.live` false), plays it from its first segment to
 * its last and ends, and every fragment carries the PDT the live playlist gave that segment when it
 * aired. The programme is the as-run log's: a preroll and the VOD after it, so playback crosses an
 * item boundary (a discontinuity). Runs where /usr/bin/chromium exists.
 */
import { describe, expect, it } from 'vitest';
import type { AsRunEntry } from '../../core/asrun/asrun-entry';
import { buildAsRun } from '../../engine-container/src/asrun/build-asrun';
import { chromiumSkipReason, playInBrowser } from '../support/browser';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { describeStalls, streamHaltProblems } from '../support/stall-kinds';
import { expectWatched, noChromium, usePlayedEngine } from './support/played-in-browser';

const MINUTE = 60_000;

/** Media sequence number → PDT, as the live playlists (every rendition) listed them while on air. */
const livePdts = new Map<number, number>();
/** The fake clock's first step: the minutes recorded are counted from it. */
let filledFromMs: number | undefined;

describe(`catch-up of a programme that aired two hours ago, in hls.js${chromiumSkipReason()}`, () => {
  const played = usePlayedEngine({
    hours: 2.5,
    // Minutes 25 to 31 of the fill (about 2 h 5 min ago): the live playlists as they were then.
    onStep: async (nowMs, runtime) => {
      filledFromMs ??= nowMs;
      if (nowMs < filledFromMs + 25 * MINUTE || nowMs > filledFromMs + 31 * MINUTE) return;
      for (const key of ['v0', 'v1']) {
        const live = parseMediaPlaylist(await runtime.playlists.mediaPlaylist(key));
        for (const s of live.segments) {
          const seen = livePdts.get(s.mediaSequence);
          // Renditions must agree on a segment's air time; a disagreement fails the comparison below.
          livePdts.set(
            s.mediaSequence,
            seen === undefined || seen === s.programDateTimeMs ? s.programDateTimeMs! : Number.NaN,
          );
        }
      }
    },
  });

  it.skipIf(noChromium)(
    'plays a finished programme as a VOD from its first segment to its end, every fragment at its air time',
    async () => {
      // The programme: a preroll and the VOD after it, between minutes 26 and 29, from the as-run log.
      const entries = buildAsRun(await played().engine.core.store.read('ch'), Date.now());
      const inRecorded = (e: AsRunEntry) =>
        e.startMs >= filledFromMs! + 26 * MINUTE && e.endMs <= filledFromMs! + 29 * MINUTE;
      const k = entries.findIndex(
        (e, i) => e.title === 'preroll' && inRecorded(e) && entries[i + 1] && inRecorded(entries[i + 1]!),
      );
      expect(k).toBeGreaterThanOrEqual(0);
      const [preroll, vod] = [entries[k]!, entries[k + 1]!];
      expect(vod.startMs).toBe(preroll.endMs);
      const iso = (ms: number) => new Date(ms).toISOString();
      const url = `${played().base}/channels/ch/master.m3u8?start=${iso(preroll.startMs)}&end=${iso(vod.endMs)}`;

      const play = await playInBrowser(url, {
        seconds: 120,
        until: "window.__report.mediaEvents.some((e) => e.type === 'ended')",
      });
      const frags = play.raw.frags;
      const loads = play.raw.levelLoads ?? [];
      const programmeS = (vod.endMs - preroll.startMs) / 1000;
      console.info(
        `catch-up of ${programmeS} s: played ${play.playedSeconds.toFixed(1)} s in ${play.wallSeconds.toFixed(1)} s, ` +
          `${frags.length} fragments (sn ${frags[0]?.sn}–${frags.at(-1)?.sn}), stalls ${play.stalls}, ` +
          `playlists ${loads.map((l) => `${l.type}/live=${l.live}`).join(' ')}`,
      );
      const context = expectWatched(play);
      // No halt of the stream's making; one a starved player made of its own is printed (stall-kinds.ts).
      expect(streamHaltProblems(play), `${context}\nhalts: ${describeStalls(play.judgedStalls)}`).toEqual([]);

      // hls.js read a VOD: EXT-X-PLAYLIST-TYPE:VOD with EXT-X-ENDLIST, never a live playlist.
      expect(loads.length).toBeGreaterThan(0);
      for (const l of loads) expect([l.live, l.type]).toEqual([false, 'VOD']);
      // From the first segment to the last, each played once, and then the video ended.
      const { startSN, endSN } = loads[0]!;
      const sns = [...new Set(frags.map((f) => Number(f.sn)))];
      expect(sns).toEqual(Array.from({ length: endSN - startSN + 1 }, (_, i) => startSN + i));
      expect(
        play.raw.mediaEvents.some((e) => e.type === 'ended'),
        context,
      ).toBe(true);
      expect(play.currentTimeEnd).toBeGreaterThan(programmeS - 1);

      // Every fragment's PDT is its air time: the live playlist's, and the as-run log's item boundaries.
      for (const f of frags) expect(f.programDateTimeMs, `sn ${f.sn}`).toBe(livePdts.get(Number(f.sn)));
      expect(frags[0]!.programDateTimeMs).toBe(preroll.startMs);
      const crossed = frags.findIndex((f, i) => i > 0 && f.cc !== frags[i - 1]!.cc);
      expect(frags[crossed]?.programDateTimeMs).toBe(vod.startMs);
    },
    180_000,
  );
});
