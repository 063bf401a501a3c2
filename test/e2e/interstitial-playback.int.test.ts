/**
 * A preroll delivered as an HLS interstitial, watched the way a viewer does: the whole local system
 * (channel API, DynamoDB Local, the engine), a Loop channel made through the API with
 * `opts.preroll.delivery: "interstitial"`, and hls.js (which plays interstitials) in headless
 * Chromium. hls.js's own interstitial events are the evidence: it starts the break, plays the ad from
 * the ad's playlist, and resumes the channel. Runs where /usr/bin/chromium exists (CI installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserPlayback,
  chromiumAvailable,
  chromiumSkipReason,
  playInBrowser,
  untilCrossed,
} from '../support/browser';
import {
  type ChannelUser,
  channelUser,
  type FixtureSystem,
  loopWithPreroll,
  startFixtureSystem,
} from '../support/fixture-system';
import { type StaticServer, startStaticServer } from '../support/static-server';
import * as adBreak from './support/interstitial-break';

const noChromium = !chromiumAvailable();
const skipReason = chromiumSkipReason();
if (noChromium) console.warn(`interstitial playback tests${skipReason}`);

/** The system, the fixtures and their origin. */
let onair: FixtureSystem;
/** The viewer who makes the channels. */
let user: ChannelUser;

/**
 * A Loop channel of vod-a (20 s) whose 6 s preroll is delivered as an interstitial, on air; its media
 * from `origin` (the system's, unless a test counts its own requests).
 */
async function interstitialChannel(
  name: string,
  origin: StaticServer = onair.origin,
): Promise<{ playback: string; preroll: string }> {
  const { playback } = await user.channelOnAir(
    loopWithPreroll({ origin, fixtures: onair.fixtures }, name, 'interstitial'),
  );
  return { playback, preroll: `${origin.url}/${onair.fixtures.preroll.path}` };
}

const context = (play: BrowserPlayback) =>
  adBreak.context(play, `media events: ${JSON.stringify(play.raw.mediaEvents)}`);

// The two players at once (each waits far more than it computes), on origins of their own.
describe.concurrent(`a channel whose preroll is an HLS interstitial, played by hls.js in Chromium${skipReason}`, () => {
  beforeAll(async () => {
    if (noChromium) return;
    onair = await startFixtureSystem(['channel', 'engine']);
    user = await channelUser(onair.system, 'ads@viewers.test', 'Viewers');
  });

  afterAll(async () => {
    await onair?.stop();
  });

  it.skipIf(noChromium)(
    'starts the interstitial at the next loop, plays the ad from its own playlist and returns to the channel',
    async () => {
      const { playback, preroll } = await interstitialChannel('browser-interstitial');

      // vod-a loops every 20 s: a break starts within 20 s of joining, the ad lasts 6 s.
      const play = await playInBrowser(playback, { seconds: 50, until: adBreak.RESUMED_AND_PLAYING });
      const { steps, started, sequence } = adBreak.played(play);
      console.info(
        `interstitial events (${play.wallSeconds.toFixed(1)} s played): ${adBreak.describeSteps(steps)}`,
      );

      expect(started, context(play)).toBeDefined();
      expect(started!.id, context(play)).toMatch(/^interstitial-\d+-\d+$/);
      expect(sequence.slice(0, 5), context(play)).toEqual(adBreak.WHOLE);
      expect(steps.find((e) => e.type === 'assetStarted')!.assetUri).toBe(preroll);
      expect(
        steps.filter((e) => e.type === 'assetError'),
        context(play),
      ).toEqual([]);
      expect(play.fatalErrors, context(play)).toEqual([]);

      // The ad came from its own playlist (the asset player fetched its segments), never the channel's.
      const adSegments = onair.origin
        .requests()
        .filter((r) => r.path.startsWith('/preroll/') && r.path.endsWith('.ts'));
      expect(adSegments.length).toBeGreaterThan(0);
      expect(play.raw.frags.filter((f) => f.url.includes('/preroll/'))).toEqual([]);
      // Back on the channel: its own content played on after the break.
      const resumedAt = steps.find((e) => e.type === 'primaryResumed')!.atMs;
      const after = play.raw.frags.filter((f) => f.atMs > resumedAt && f.url.includes('/vod-a/'));
      expect(after.length, context(play)).toBeGreaterThan(0);
      // X-RESUME-OFFSET=0: the channel resumes where the break began (within a segment), skipping none of it.
      const back = play.raw.mediaEvents.find((e) => e.type === 'playing' && e.atMs >= resumedAt)!;
      expect(Math.abs(back.currentTime - started!.currentTime), context(play)).toBeLessThan(2);
      console.info(
        `break at ${started!.currentTime.toFixed(2)} s of the channel's timeline, resumed at ${back.currentTime.toFixed(2)} s; ` +
          `${adSegments.length} ad segments fetched by the asset player, ${after.length} channel fragments after it`,
      );
    },
    120_000,
  );

  it.skipIf(noChromium)(
    'plays the channel across a loop without the ad in a player that does not play interstitials',
    async () => {
      // Its own origin: the other test's player fetches the ad from the system's meanwhile.
      const origin = await startStaticServer(onair.fixtures.root);
      try {
        const { playback } = await interstitialChannel('browser-no-interstitials', origin);
        const adRequests = () => origin.requests().filter((r) => r.path.startsWith('/preroll/')).length;
        const before = adRequests();

        // Ends 2 s of media after playback entered the next pass of the VOD (a discontinuity crossed).
        const play = await playInBrowser(playback, {
          seconds: 40,
          hlsConfig: { enableInterstitialPlayback: false },
          until: untilCrossed(1, 2),
        });
        console.info(
          `without interstitial playback: ${play.playedSeconds.toFixed(1)} s played in ${play.wallSeconds.toFixed(1)} s, ` +
            `discontinuities ${play.discontinuitiesCrossed}, stalls ${play.stalls}`,
        );
        expect(play.started, context(play)).toBe(true);
        expect(play.fatalErrors, context(play)).toEqual([]);
        expect(play.discontinuitiesCrossed, context(play)).toBeGreaterThanOrEqual(1);
        expect(play.raw.interstitials.filter((e) => e.type === 'started')).toEqual([]);
        expect(
          play.raw.frags.every((f) => f.url.includes('/vod-a/')),
          context(play),
        ).toBe(true);
        expect(adRequests()).toBe(before);
      } finally {
        await origin.close();
      }
    },
    120_000,
  );
});
