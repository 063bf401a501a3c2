/**
 * Start-over in a real player: a channel whose log holds the last two and a half hours (filled on a
 * fake clock, in seconds), then served by a real engine on the real clock, and hls.js in Chromium
 * playing `master.m3u8?start=<2 hours ago>`: it starts at the segment that aired then and plays on from
 * there, every fragment dated with its original air time. Runs where /usr/bin/chromium exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../engine-container/src/index';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import {
  CHROMIUM_PATH,
  chromiumAvailable,
  describeErrors,
  isSegmentLoadError,
  playInBrowser,
} from '../support/browser';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import { type StaticServer, startStaticServer } from '../support/static-server';

const noChromium = !chromiumAvailable();
const skipReason = noChromium ? ` (skipped: no Chromium at ${CHROMIUM_PATH})` : '';
const HOUR = 3_600_000;

let origin: StaticServer;
let fixtures: FixturePaths;
let engine: Engine;
let base: string;
/** The fake time while the log is filled; undefined: the real clock. */
let fakeNow: number | undefined;
const clock = () => fakeNow ?? Date.now();

describe(`start-over from two hours ago in hls.js${skipReason}`, () => {
  beforeAll(async () => {
    if (noChromium) return;
    fixtures = await ensureFixtures();
    origin = await startStaticServer(fixtures.root);
    const vods = [fixtures.vodA, fixtures.preroll].map((f) => ({
      id: f.name,
      title: f.name,
      uri: `${origin.url}/${f.path}`,
    }));
    let asks = 0;
    engine = new Engine(
      { getNextVod: async () => vods[asks++ % vods.length]! },
      {
        port: 0,
        host: '127.0.0.1',
        clock,
        logStore: new InMemoryPlayoutLogStore(clock, 24 * HOUR),
        channelManager: { getChannels: () => [{ id: 'ch', name: 'Channel' }] },
      },
    );
    // The retention filled on a fake clock: the channel as if it had played since 2.5 h ago.
    const runtime = engine.core.upsertChannel({ id: 'ch', name: 'Channel' });
    for (fakeNow = Date.now() - 2.5 * HOUR; fakeNow < Date.now(); fakeNow += 2000)
      if (runtime.playout.nextWakeMs() <= fakeNow) await runtime.playout.advance();
    fakeNow = undefined;
    await engine.start();
    base = `http://127.0.0.1:${engine.port}`;
  }, 180_000);

  afterAll(async () => {
    await engine?.stop();
    await origin?.close();
  });

  it.skipIf(noChromium)(
    'starts at the segment on air two hours ago and plays on from there, dated with its air time',
    async () => {
      const startMs = Date.now() - 2 * HOUR;
      const url = `${base}/channels/ch/master.m3u8?start=${new Date(startMs).toISOString()}`;
      const play = await playInBrowser(url, { seconds: 20 });
      const context = `errors:\n${describeErrors(play.errors) || '(none)'}\npage: ${play.pageErrors.join('; ')}`;
      const pdts = play.raw.frags
        .map((f) => f.programDateTimeMs)
        .filter((p): p is number => typeof p === 'number');
      console.info(
        `played ${play.playedSeconds.toFixed(1)} s in ${play.wallSeconds.toFixed(1)} s, ${pdts.length} fragments, ` +
          `first ${pdts.length ? ((pdts[0]! - startMs) / 1000).toFixed(3) : '-'} s after start, stalls ${play.stalls}`,
      );
      expect(play.started, context).toBe(true);
      expect(play.fatalErrors, context).toEqual([]);
      expect(play.errors.filter(isSegmentLoadError), context).toEqual([]);
      expect(play.playedSeconds, context).toBeGreaterThanOrEqual(0.8 * play.wallSeconds);
      expect(pdts.length).toBeGreaterThanOrEqual(5);
      // The first fragment is the one that held start (2 s segments), not the live edge.
      expect(pdts[0]!).toBeLessThanOrEqual(startMs);
      expect(pdts[0]!).toBeGreaterThan(startMs - 2000);
      for (const pdt of pdts) expect(pdt).toBeLessThan(startMs + 60_000);
      const segments = origin.requests().map((r) => r.path);
      expect(segments.some((p) => p.endsWith('.ts'))).toBe(true);
    },
    120_000,
  );
});
