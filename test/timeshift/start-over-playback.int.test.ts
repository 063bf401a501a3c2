/**
 * Start-over in a real player: a channel whose log holds the last two and a half hours (filled on a
 * fake clock, in seconds), then served by a real engine on the real clock, and hls.js in Chromium
 * playing `master.m3u8?start=<2 hours ago>`: it starts at the segment that aired then and plays on from
 * there, every fragment dated with its original air time. Runs where /usr/bin/chromium exists.
 */
import { describe, expect, it } from 'vitest';
import { chromiumSkipReason, playInBrowser } from '../support/browser';
import { HOUR } from './support/played-engine';
import { expectWatched, noChromium, usePlayedEngine } from './support/played-in-browser';

describe(`start-over from two hours ago in hls.js${chromiumSkipReason()}`, () => {
  // The retention filled on a fake clock: the channel as if it had played since 2.5 h ago.
  const played = usePlayedEngine({ hours: 2.5 });

  it.skipIf(noChromium)(
    'starts at the segment on air two hours ago and plays on from there, dated with its air time',
    async () => {
      const startMs = Date.now() - 2 * HOUR;
      const url = `${played().base}/channels/ch/master.m3u8?start=${new Date(startMs).toISOString()}`;
      // Six fragments played (five dated ones are asked for below), 20 s at most.
      const play = await playInBrowser(url, { seconds: 20, until: 'window.__report.frags.length >= 6' });
      const pdts = play.raw.frags
        .map((f) => f.programDateTimeMs)
        .filter((p): p is number => typeof p === 'number');
      console.info(
        `played ${play.playedSeconds.toFixed(1)} s in ${play.wallSeconds.toFixed(1)} s, ${pdts.length} fragments, ` +
          `first ${pdts.length ? ((pdts[0]! - startMs) / 1000).toFixed(3) : '-'} s after start, stalls ${play.stalls}`,
      );
      const context = expectWatched(play);
      // At most 4 s of the viewing not played: what a fifth of the 20 s play allowed before it stopped
      // at six fragments.
      expect(play.playedSeconds, context).toBeGreaterThanOrEqual(play.wallSeconds - 4);
      expect(pdts.length).toBeGreaterThanOrEqual(5);
      // The first fragment is the one that held start (2 s segments), not the live edge.
      expect(pdts[0]!).toBeLessThanOrEqual(startMs);
      expect(pdts[0]!).toBeGreaterThan(startMs - 2000);
      for (const pdt of pdts) expect(pdt).toBeLessThan(startMs + 60_000);
      // The player's own fragments: the engine also reads the origin's TS (its audio lead, vod/audio-lead.ts).
      const segments = play.raw.frags.map((f) => new URL(f.url).pathname);
      expect(segments.some((p) => p.endsWith('.ts'))).toBe(true);
    },
    120_000,
  );
});
