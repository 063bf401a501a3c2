/**
 * A preroll delivered as an HLS interstitial, watched the way a viewer does: the whole local system
 * (channel API, DynamoDB Local, the engine), a Loop channel made through the API with
 * `opts.preroll.delivery: "interstitial"`, and hls.js (which plays interstitials) in headless
 * Chromium. hls.js's own interstitial events are the evidence: it starts the break, plays the ad from
 * the ad's playlist, and resumes the channel. Runs where /usr/bin/chromium exists (CI installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSystem, startSystem } from '../../local/system';
import {
  type BrowserPlayback,
  CHROMIUM_PATH,
  chromiumAvailable,
  describeErrors,
  playInBrowser,
} from '../support/browser';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import { waitOnAir } from '../support/on-air';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { type StaticServer, startStaticServer } from '../support/static-server';

const noChromium = !chromiumAvailable();
const skipReason = noChromium ? ` (skipped: no Chromium at ${CHROMIUM_PATH})` : '';
if (noChromium) console.warn(`interstitial playback tests${skipReason}`);

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

/** A Loop channel of vod-a (20 s) whose 6 s preroll is delivered as an interstitial, on air. */
async function interstitialChannel(name: string): Promise<{ playback: string; preroll: string }> {
  const preroll = `${origin.url}/${fixtures.preroll.path}`;
  const res = await post(
    '/channel',
    {
      name,
      type: 'Loop',
      url: `${origin.url}/${fixtures.vodA.path}`,
      opts: { preroll: { url: preroll, duration: '6000', delivery: 'interstitial' } },
    },
    token,
  );
  expect(res.status).toBe(201);
  const playback = ((await res.json()) as { playback: string }).playback;
  await waitOnAir(playback);
  return { playback, preroll };
}

/** Ends the viewing once the channel has played 4 s of its own content after the break. */
const RESUMED_AND_PLAYING = `(() => {
  const r = window.__report;
  const resumed = r.interstitials.find((e) => e.type === 'primaryResumed');
  const back = resumed && r.mediaEvents.find((e) => e.type === 'playing' && e.atMs >= resumed.atMs);
  const last = r.samples[r.samples.length - 1];
  return !!back && !!last && last.atMs > back.atMs && last.currentTime >= back.currentTime + 4;
})()`;

const context = (play: BrowserPlayback) =>
  `interstitial events: ${JSON.stringify(play.raw.interstitials)}\nerrors:\n${describeErrors(play.errors) || '(none)'}\n` +
  `page: ${play.pageErrors.join('; ') || '(none)'}\nmedia events: ${JSON.stringify(play.raw.mediaEvents)}`;

describe(`a channel whose preroll is an HLS interstitial, played by hls.js in Chromium${skipReason}`, () => {
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
    const res = await post('/token', { company: 'Viewers', email: 'ads@viewers.test' });
    expect(res.status).toBe(201);
    token = ((await res.json()) as { token: string }).token;
  });

  afterAll(async () => {
    await system?.stop();
    await origin?.close();
  });

  it.skipIf(noChromium)(
    'starts the interstitial at the next loop, plays the ad from its own playlist and returns to the channel',
    async () => {
      const { playback, preroll } = await interstitialChannel('browser-interstitial');

      // vod-a loops every 20 s: a break starts within 20 s of joining, the ad lasts 6 s.
      const play = await playInBrowser(playback, { seconds: 50, until: RESUMED_AND_PLAYING });
      const events = play.raw.interstitials;
      const steps = events.filter((e) => e.type !== 'updated');
      console.info(
        `interstitial events (${(play.wallSeconds).toFixed(1)} s played): ` +
          steps.map((e) => `${(e.atMs / 1000).toFixed(1)}s ${e.type} ${e.id}`).join(', '),
      );

      const started = steps.find((e) => e.type === 'started');
      expect(started, context(play)).toBeDefined();
      const id = started!.id;
      expect(id, context(play)).toMatch(/^interstitial-\d+-\d+$/);
      // INTERSTITIALS_PRIMARY_RESUMED names no event: it is the step after the break's end.
      const sequence = steps.filter((e) => e.id === id || e.type === 'primaryResumed').map((e) => e.type);
      expect(sequence.slice(0, 5), context(play)).toEqual([
        'started',
        'assetStarted',
        'assetEnded',
        'ended',
        'primaryResumed',
      ]);
      expect(steps.find((e) => e.type === 'assetStarted')!.assetUri).toBe(preroll);
      expect(
        steps.filter((e) => e.type === 'assetError'),
        context(play),
      ).toEqual([]);
      expect(play.fatalErrors, context(play)).toEqual([]);

      // The ad came from its own playlist (the asset player fetched its segments), never the channel's.
      const adSegments = origin
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
      const { playback } = await interstitialChannel('browser-no-interstitials');
      const adRequests = () => origin.requests().filter((r) => r.path.startsWith('/preroll/')).length;
      const before = adRequests();

      // Ends 2 s of media after playback entered the next pass of the VOD (a discontinuity crossed).
      const play = await playInBrowser(playback, {
        seconds: 40,
        hlsConfig: { enableInterstitialPlayback: false },
        until: `(() => {
          const f = window.__report.frags;
          const i = f.findIndex((x, n) => n > 0 && x.cc !== f[n - 1].cc);
          const last = window.__report.samples[window.__report.samples.length - 1];
          return i > 0 && !!last && last.currentTime >= (f[i].start ?? 0) + 2;
        })()`,
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
    },
    120_000,
  );
});
