/**
 * A viewer's browser watching onair channels: the whole local system (channel API, DynamoDB Local, the
 * engine), channels made through the API, and hls.js in headless Chromium playing the playback URL in
 * real time across VOD and preroll boundaries. Runs where /usr/bin/chromium exists (CI installs it).
 * The two channels are played at once, each in a browser of its own: a player waits on the wall clock
 * far more than it computes, so one file's time is one playback's, not two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSystem, startSystem } from '../../local/system';
import { startWebhook } from '../support/answering-webhook';
import {
  type BrowserPlayback,
  CHROMIUM_PATH,
  chromiumAvailable,
  describeErrors,
  isSegmentLoadError,
  playInBrowser,
} from '../support/browser';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import { waitOnAir } from '../support/on-air';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { type StaticServer, startStaticServer } from '../support/static-server';

const noChromium = !chromiumAvailable();
const skipReason = noChromium ? ` (skipped: no Chromium at ${CHROMIUM_PATH})` : '';
if (noChromium) console.warn(`browser playback tests${skipReason}`);

let system: RunningSystem;
let origin: StaticServer;
let fixtures: FixturePaths;
let token: string;

function post(path: string, body: unknown, jwt?: string) {
  return fetch(`${system.urls.channel}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(jwt ? { 'x-jwt': `Bearer ${jwt}` } : {}) },
    body: JSON.stringify(body),
  });
}

async function createChannel(body: Record<string, unknown>): Promise<string> {
  const res = await post('/channel', body, token);
  expect(res.status).toBe(201);
  return ((await res.json()) as { playback: string }).playback;
}

/** The assertions of a good viewing, with the whole record printed when one fails. */
function expectSmoothPlayback(play: BrowserPlayback) {
  const context = () =>
    `errors:\n${describeErrors(play.errors) || '(none)'}\npage: ${play.pageErrors.join('; ') || '(none)'}\n` +
    `media events: ${JSON.stringify(play.raw.mediaEvents)}`;
  console.info(
    `played ${play.playedSeconds.toFixed(1)} s in ${play.wallSeconds.toFixed(1)} s; stalls ${play.stalls}, ` +
      `seeks ${play.seeks}, discontinuities ${play.discontinuitiesCrossed}, level switches ${play.levelSwitches}`,
  );
  if (play.errors.length) console.info(`hls.js reported:\n${describeErrors(play.errors)}`);
  expect(play.started, context()).toBe(true);
  expect(play.fatalErrors, context()).toEqual([]);
  expect(
    play.errors.filter((e) => e.type === 'mediaError'),
    context(),
  ).toEqual([]);
  expect(play.errors.filter(isSegmentLoadError), context()).toEqual([]);
  expect(play.playedSeconds, context()).toBeGreaterThanOrEqual(0.8 * play.wallSeconds);
  expect(play.stalls, context()).toBeLessThanOrEqual(1);
}

describe.concurrent(`a channel played by hls.js in Chromium${skipReason}`, () => {
  beforeAll(async () => {
    if (noChromium) return;
    fixtures = await ensureFixtures();
    origin = await startStaticServer(fixtures.root);
    system = await startSystem({
      sharedDynamoDb: sharedDynamoDb(),
      ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
      services: ['channel', 'engine'],
      env: { LOG_LEVEL: 'silent' },
    });
    const res = await post('/token', { company: 'Viewers', email: 'browser@viewers.test' });
    expect(res.status).toBe(201);
    token = ((await res.json()) as { token: string }).token;
  });

  afterAll(async () => {
    await system?.stop();
    await origin?.close();
  });

  it.skipIf(noChromium)(
    'plays a Loop channel with a preroll across VOD and preroll boundaries without errors or stalls',
    async () => {
      const playback = await createChannel({
        name: 'browser-loop',
        type: 'Loop',
        url: `${origin.url}/${fixtures.vodA.path}`,
        opts: { preroll: { url: `${origin.url}/${fixtures.preroll.path}`, duration: '6000' } },
      });
      await waitOnAir(playback);

      // vod-a is 20 s and the preroll 6 s: 45 s holds at least three boundaries.
      const play = await playInBrowser(playback, { seconds: 45 });

      expectSmoothPlayback(play);
      expect(play.wallSeconds).toBeGreaterThanOrEqual(40);
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
      const vods = [fixtures.vodB, fixtures.vodA].map((f) => ({
        id: f.name,
        title: f.name,
        hlsUrl: `${origin.url}/${f.path}`,
      }));
      const hook = await startWebhook((n) => vods[n % vods.length]!);
      try {
        const playback = await createChannel({ name: 'browser-hook', type: 'WebHook', url: hook.url });
        await waitOnAir(playback);

        // vod-b is 24 s and vod-a 20 s: 40 s holds at least one change of ladder.
        const play = await playInBrowser(playback, { seconds: 40 });

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
