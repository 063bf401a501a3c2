/**
 * The as-run log against what a real player played: a Loop channel with a preroll, made through the
 * channel API and played by hls.js in Chromium; the item boundaries the player crossed (from the
 * PROGRAM-DATE-TIME of the fragments it played) are the as-run log's, within one segment, and every
 * fragment played lies in an entry of its kind. Runs where /usr/bin/chromium exists (CI installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AsRunView } from '../../core/asrun/asrun-entry';
import { waitFor } from '../../core/wait-for';
import {
  chromiumAvailable,
  chromiumSkipReason,
  type FragRecord,
  playInBrowser,
  untilCrossed,
} from '../support/browser';
import {
  channelUser,
  type FixtureSystem,
  loopWithPreroll,
  startFixtureSystem,
} from '../support/fixture-system';

const noChromium = !chromiumAvailable();
const skipReason = chromiumSkipReason();
/** The fixtures' segment length: the player's view of a boundary is a segment's start. */
const SEGMENT_MS = 2000;

/** The system, the fixtures and their origin. */
let onair: FixtureSystem;

interface Played {
  pdtMs: number;
  kind: 'preroll' | 'vod';
  cc: number;
}

/** The fragments the player entered, with their air time and what they are by their origin folder. */
function played(frags: readonly FragRecord[]): Played[] {
  return frags
    .filter((f) => typeof f.programDateTimeMs === 'number')
    .map((f) => ({
      pdtMs: f.programDateTimeMs!,
      kind: new URL(f.url).pathname.startsWith('/preroll/') ? ('preroll' as const) : ('vod' as const),
      cc: f.cc,
    }));
}

describe(`the as-run log of a channel hls.js played${skipReason}`, () => {
  beforeAll(async () => {
    if (noChromium) return;
    onair = await startFixtureSystem(['channel', 'engine']);
  }, 120_000);

  afterAll(async () => {
    await onair?.stop();
  });

  it.skipIf(noChromium)(
    'has the boundaries the player crossed, within one segment, and each fragment in an entry of its kind',
    async () => {
      const user = await channelUser(onair.system, 'asrun@billing.test', 'Billing');
      const jwt = { 'x-jwt': `Bearer ${user.token}` };
      const { id, playback } = await user.channelOnAir(loopWithPreroll(onair, 'asrun-browser'));

      // vod-a is 20 s and the preroll 6 s: two boundaries within 26 s of any start; the player stops 4 s
      // past the second, with more than ten fragments played (45 s at most).
      const play = await playInBrowser(playback, {
        seconds: 45,
        until: `${untilCrossed(2, 4)} && window.__report.frags.length > 10`,
      });
      expect(play.started).toBe(true);
      const frags = played(play.raw.frags);
      expect(frags.length).toBeGreaterThan(10);
      const lastPdt = frags[frags.length - 1]!.pdtMs;

      // The entry holding the last fragment played is in the log once it has aired.
      const asRun = await waitFor(
        async () =>
          (await (
            await fetch(`${onair.system.urls.channel}/channel/${id}/asrun`, { headers: jwt })
          ).json()) as AsRunView[],
        (list) => list.some((e) => e.endMs > lastPdt),
        { timeoutMs: 60_000, what: 'the as-run log past the last fragment played', intervalMs: 1000 },
      );

      for (const f of frags) {
        const entry = asRun.find((e) => e.startMs <= f.pdtMs && f.pdtMs < e.endMs);
        expect(entry?.kind, `fragment at ${new Date(f.pdtMs).toISOString()}`).toBe(f.kind);
      }
      // Where the player crossed a discontinuity (an item boundary), and the as-run's boundaries then.
      const crossed = frags.filter((f, k) => k > 0 && f.cc !== frags[k - 1]!.cc).map((f) => f.pdtMs);
      const boundaries = asRun.map((e) => e.startMs).filter((ms) => ms > frags[0]!.pdtMs && ms <= lastPdt);
      console.info(
        `played ${frags.length} fragments; boundaries crossed ${crossed.length}, in the as-run ${boundaries.length}; ` +
          `offsets ms ${crossed.map((c, k) => c - (boundaries[k] ?? Number.NaN)).join(', ')}`,
      );
      expect(boundaries.length).toBeGreaterThanOrEqual(2);
      expect(crossed).toHaveLength(boundaries.length);
      crossed.forEach((c, k) => {
        expect(c - boundaries[k]!).toBeGreaterThanOrEqual(0);
        expect(c - boundaries[k]!).toBeLessThan(SEGMENT_MS);
      });
    },
    180_000,
  );
});
