/**
 * A viewer's browser watching onair channels: the whole local system (channel API, DynamoDB Local, the
 * engine), channels made through the API, and hls.js in headless Chromium playing the playback URL in
 * real time across VOD and preroll boundaries. Runs where /usr/bin/chromium exists (CI installs it).
 * The two channels are played at once, each in a browser of its own: a player waits on the wall clock
 * far more than it computes, so one file's time is one playback's, not two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhook } from '../support/answering-webhook';
import {
  type BrowserPlayback,
  chromiumAvailable,
  chromiumSkipReason,
  describeErrors,
  describePlaybackErrors,
  isSegmentLoadError,
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
import { describeStalls, isPlayersNote, streamHaltProblems } from '../support/stall-kinds';

const noChromium = !chromiumAvailable();
const skipReason = chromiumSkipReason();
if (noChromium) console.warn(`browser playback tests${skipReason}`);

/** The system, the fixtures and their origin. */
let onair: FixtureSystem;
/** The viewer who makes the channels. */
let user: ChannelUser;

/** The assertions of a good viewing, with the whole record printed when one fails. */
function expectSmoothPlayback(play: BrowserPlayback) {
  const context = () =>
    `${describePlaybackErrors(play)}\nhalts: ${describeStalls(play.judgedStalls) || '(none)'}\nmedia events: ${JSON.stringify(play.raw.mediaEvents)}`;
  console.info(
    `played ${play.playedSeconds.toFixed(1)} s in ${play.wallSeconds.toFixed(1)} s; stalls ${play.stalls}, ` +
      `seeks ${play.seeks}, discontinuities ${play.discontinuitiesCrossed}, level switches ${play.levelSwitches}`,
  );
  if (play.errors.length) console.info(`hls.js reported:\n${describeErrors(play.errors)}`);
  expect(play.started, context()).toBe(true);
  expect(play.fatalErrors, context()).toEqual([]);
  // hls.js's note of a halt a starved player made of its own is the player's (stall-kinds.ts).
  expect(
    play.errors.filter((e) => e.type === 'mediaError' && !isPlayersNote(e, play.judgedStalls)),
    context(),
  ).toEqual([]);
  expect(play.errors.filter(isSegmentLoadError), context()).toEqual([]);
  // At most 8 s of the viewing not played (a halt, a slow append on a busy machine) besides what the
  // player's own halts held: what a fifth of the 40–45 s plays allowed before they stopped at the seams
  // they check. At most one halt of the stream's making; the player's are printed.
  expect(play.playedSeconds + play.playersHaltSeconds, context()).toBeGreaterThanOrEqual(
    play.wallSeconds - 8,
  );
  expect(streamHaltProblems(play).length, context()).toBeLessThanOrEqual(1);
}

describe.concurrent(`a channel played by hls.js in Chromium${skipReason}`, () => {
  beforeAll(async () => {
    if (noChromium) return;
    onair = await startFixtureSystem(['channel', 'engine']);
    user = await channelUser(onair.system, 'browser@viewers.test', 'Viewers');
  });

  afterAll(async () => {
    await onair?.stop();
  });

  it.skipIf(noChromium)(
    'plays a Loop channel with a preroll across VOD and preroll boundaries without errors or stalls',
    async () => {
      const { playback } = await user.channelOnAir(loopWithPreroll(onair, 'browser-loop'));

      // vod-a is 20 s and the preroll 6 s: two boundaries (VOD → preroll, preroll → VOD or the other
      // way) within 26 s of any start, and 4 s played past the second; 45 s at most.
      const play = await playInBrowser(playback, { seconds: 45, until: untilCrossed(2, 4) });

      expectSmoothPlayback(play);
      expect(play.discontinuitiesCrossed).toBeGreaterThanOrEqual(2);
      // The segments this player fetched (the origin also serves the other test's player).
      const segments = play.raw.frags.map((f) => new URL(f.url).pathname);
      expect(segments.some((p) => p.startsWith('/preroll/') && p.endsWith('.ts'))).toBe(true);
      expect(segments.some((p) => p.startsWith('/vod-a/') && p.endsWith('.ts'))).toBe(true);
    },
    90_000,
  );

  it.skipIf(noChromium)(
    'plays a WebHook channel alternating two VODs with different ladders without errors or stalls',
    async () => {
      // vod-b first: the channel's target duration comes from its first VOD, and vod-b's 4 s
      // segments are the longer ones (the engine refuses a later VOD with longer segments).
      const vods = [onair.fixtures.vodB, onair.fixtures.vodA].map((f) => ({
        id: f.name,
        title: f.name,
        hlsUrl: `${onair.origin.url}/${f.path}`,
      }));
      const hook = await startWebhook((n) => vods[n % vods.length]!);
      try {
        const { playback } = await user.channelOnAir({
          name: 'browser-hook',
          type: 'WebHook',
          url: hook.url,
        });

        // vod-b is 24 s and vod-a 20 s: a change of ladder within 24 s of any start, and 4 s played past
        // it; 40 s at most.
        const play = await playInBrowser(playback, { seconds: 40, until: untilCrossed(1, 4) });

        expectSmoothPlayback(play);
        expect(hook.calls().every((c) => c === 'browser-hook')).toBe(true);
        expect(play.discontinuitiesCrossed).toBeGreaterThanOrEqual(1);
        const played = new Set(play.raw.frags.map((f) => new URL(f.url).pathname.split('/')[1]));
        expect([...played].sort()).toEqual(['vod-a', 'vod-b']);
      } finally {
        await hook.close();
      }
    },
    90_000,
  );
});
