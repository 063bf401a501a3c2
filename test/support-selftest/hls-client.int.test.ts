/**
 * The client harness against a live origin simulator serving the real fixtures: it must pass a
 * correct live stream (across a VOD change) and catch each kind of broken one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import {
  checkLivePlaylistRules,
  classifyFfmpegOutput,
  listMediaPlaylists,
  playWithFfmpeg,
} from '../support/hls-client';
import { checkSegmentTimestamps, findTimestampGaps } from '../support/segment-timestamps';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { itemFromVod, type LiveItem, type LiveSimulator, startLiveSimulator } from './live-simulator';

let fixtures: FixturePaths;
let origin: StaticServer;
let vodA: LiveItem;
let preroll: LiveItem;
const simulators: LiveSimulator[] = [];

beforeAll(async () => {
  fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  vodA = await itemFromVod(fixtures.root, 'vod-a/180p/index.m3u8', origin.url);
  preroll = await itemFromVod(fixtures.root, 'preroll/180p/index.m3u8', origin.url);
});

afterAll(async () => {
  await Promise.all(simulators.map((s) => s.close()));
  await origin.close();
});

/**
 * vod-a (20 s) then the preroll (6 s), looped. ffmpeg starts three segments behind the live edge: at
 * position 22 it starts at 16 s and meets the VOD change at 20 s.
 */
async function channel(options: { positionSec?: number; speed?: number; windowSegments?: number } = {}) {
  const sim = await startLiveSimulator({
    items: [vodA, preroll],
    targetDuration: 2,
    windowSegments: options.windowSegments ?? 5,
    positionSec: options.positionSec ?? 16,
    speed: options.speed ?? 1,
  });
  simulators.push(sim);
  return sim;
}

/**
 * Changes the simulator once the client has read its playlist `reads` times (not after a fixed time).
 * A client that never reads that often fails the test's own assertions: nothing to report here.
 */
const once = (sim: LiveSimulator, reads: number, change: () => void) =>
  waitFor(sim.served, (n) => n >= reads, { what: `${reads} reads`, timeoutMs: 30_000, intervalMs: 10 }).then(
    change,
    () => undefined,
  );

// Most of these wait on the wall clock, not the CPU: run them side by side.
describe.concurrent('live HLS client harness', () => {
  describe('playWithFfmpeg', () => {
    it('plays a correct live stream through a VOD change without errors', async () => {
      const sim = await channel({ positionSec: 22 });
      const result = await playWithFfmpeg(sim.url, { seconds: 8 });
      expect(result.errors).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.playedSeconds).toBeGreaterThanOrEqual(7.9);
      // The VOD change was played: ffmpeg saw the timestamps jump back.
      expect(result.warnings.some((w) => /out of order|Packet corrupt/.test(w))).toBe(true);
    });

    it('plays one variant, as a player does: the other is read only by its probe', async () => {
      // ffmpeg's own choice takes one variant's video and another's audio, and its demuxer interleaves
      // the two playlists by raw timestamps: with -re, 90 s of items alternating across discontinuities
      // took it 133 s (92 s reading one variant).
      // Its own origin: the shared one serves the other tests' faults and counts their requests.
      const own = await startStaticServer(fixtures.root);
      try {
        const result = await playWithFfmpeg(`${own.url}/vod-a/master.m3u8`, { seconds: 18, realtime: false });
        expect(result.errors).toEqual([]);
        const read = (variant: string) =>
          own.requests().filter((r) => r.path.startsWith(`/vod-a/${variant}/seg_`)).length;
        expect(read('180p')).toBeGreaterThanOrEqual(9);
        expect(read('360p')).toBeLessThanOrEqual(2);
      } finally {
        await own.close();
      }
    });

    it('reports a media sequence that goes back', async () => {
      const sim = await channel();
      void once(sim, 2, () => {
        sim.timeline.mediaSequenceOffset = -4;
      });
      const result = await playWithFfmpeg(sim.url, { seconds: 6 });
      expect(result.ok).toBe(false);
      expect(result.errors.join('\n')).toMatch(/Media sequence changed unexpectedly/);
    });

    it('reports segments the origin cannot serve', async () => {
      const failing = await startStaticServer(fixtures.root);
      failing.setFault('/vod-a/180p/seg_', { kind: 'status', status: 404 });
      const sim = await startLiveSimulator({
        items: [await itemFromVod(fixtures.root, 'vod-a/180p/index.m3u8', failing.url)],
        targetDuration: 2,
        windowSegments: 5,
        positionSec: 12,
        speed: 1,
      });
      simulators.push(sim);
      const result = await playWithFfmpeg(sim.url, { seconds: 4, timeoutMs: 20_000 });
      await failing.close();
      expect(result.ok).toBe(false);
      expect(result.errors.join('\n')).toMatch(/404|Failed to open segment/);
    });
  });

  describe('checkLivePlaylistRules', () => {
    it('accepts a correct live playlist across a VOD change', async () => {
      const sim = await channel({ speed: 4 });
      const violations = await checkLivePlaylistRules(sim.url, { reloads: 12, intervalMs: 250 });
      expect(violations).toEqual([]);
    });

    it('reports a media sequence that goes back between reloads', async () => {
      const sim = await channel({ speed: 4 });
      void once(sim, 2, () => {
        sim.timeline.mediaSequenceOffset = -3;
      });
      const violations = await checkLivePlaylistRules(sim.url, { reloads: 6, intervalMs: 250 });
      expect(violations.map((v) => v.rule)).toContain('media-sequence-decreased');
    });

    it('reports a playlist it cannot fetch', async () => {
      const violations = await checkLivePlaylistRules(`${origin.url}/no-such/live.m3u8`, {
        reloads: 2,
        intervalMs: 10,
      });
      expect(violations.map((v) => [v.rule, v.reload])).toEqual([
        ['fetch-failed', 0],
        ['fetch-failed', 1],
      ]);
    });

    it('reports a playlist that is not a playlist', async () => {
      origin.setFault('/vod-a/180p/index.m3u8', { kind: 'malformed' });
      try {
        const violations = await checkLivePlaylistRules(`${origin.url}/vod-a/180p/index.m3u8`, {
          reloads: 1,
          intervalMs: 0,
        });
        expect(violations.map((v) => v.rule)).toEqual(['malformed']);
      } finally {
        origin.setFault('/vod-a/180p/index.m3u8', null);
      }
    });

    it('reports a playlist that never advances', async () => {
      const sim = await channel({ speed: 0 });
      const violations = await checkLivePlaylistRules(sim.url, { reloads: 2, intervalMs: 6_100 });
      expect(violations.map((v) => v.rule)).toEqual(['no-progress']);
    });
  });

  describe('checkSegmentTimestamps', () => {
    it('accepts timestamps that jump only at a discontinuity', async () => {
      // Position 24 s: the window holds the end of vod-a and the start of the preroll.
      const sim = await channel({ positionSec: 24, windowSegments: 6 });
      const text = await (await fetch(sim.url)).text();
      expect(text).toContain('#EXT-X-DISCONTINUITY');
      expect(await checkSegmentTimestamps(sim.url)).toEqual([]);
    });

    it('reports a VOD change with no EXT-X-DISCONTINUITY', async () => {
      const sim = await channel({ positionSec: 24, windowSegments: 6 });
      sim.timeline.omitDiscontinuities = true;
      const gaps = await checkSegmentTimestamps(sim.url);
      expect(gaps.map((v) => v.rule)).toEqual(['timestamp-gap']);
      // The preroll's first segment is global index 10 (vod-a has 10 segments).
      expect(gaps[0]?.mediaSequence).toBe(10);
    });

    it('tolerates the 33-bit MPEG-TS timestamp wrap', () => {
      const wrap = 2 ** 33 / 90_000;
      const segments = [
        { mediaSequence: 1, discontinuity: false, duration: 2, startSec: wrap - 1 },
        { mediaSequence: 2, discontinuity: false, duration: 2, startSec: 1 },
      ];
      expect(findTimestampGaps(segments)).toEqual([]);
    });
  });

  describe('listMediaPlaylists', () => {
    it('lists the variants and renditions of a master playlist as absolute URLs', async () => {
      const urls = await listMediaPlaylists(`${origin.url}/${fixtures.demuxed.path}`);
      expect(urls.map((u) => new URL(u).pathname)).toEqual([
        '/demuxed/180p/index.m3u8',
        '/demuxed/360p/index.m3u8',
        '/demuxed/audio_en/index.m3u8',
        '/demuxed/audio_sv/index.m3u8',
        '/demuxed/subs_en/index.m3u8',
      ]);
    });
  });

  describe('classifyFfmpegOutput', () => {
    it('counts HTTP and media sequence failures as errors, timestamp jumps as warnings', () => {
      const stderr = [
        '[http @ 0x55d1] [warning] HTTP error 404 Not Found',
        '[hls @ 0x55d2] [warning] Media sequence changed unexpectedly: 4 -> 0',
        '[mpegts @ 0x55d3] [warning] DTS 127920 < 1924320 out of order',
        '[null @ 0x55d4] [error] Application provided invalid, non monotonically increasing dts to muxer in stream 1: 5 >= 5',
        '[h264 @ 0x55d5] [error] non-existing PPS 0 referenced',
        '[info] frame=  300 fps= 24',
      ].join('\n');
      const { errors, warnings } = classifyFfmpegOutput(stderr);
      expect(errors).toEqual([
        '[http] [warning] HTTP error 404 Not Found',
        '[hls] [warning] Media sequence changed unexpectedly: 4 -> 0',
        '[h264] [error] non-existing PPS 0 referenced',
      ]);
      expect(warnings).toHaveLength(2);
    });
  });
});
