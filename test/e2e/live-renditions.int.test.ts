/**
 * Live mixing with demuxed audio, end to end (docs/live-mixing.md, "Audio and subtitles"): a channel
 * on the `demuxed` fixture (video-only variants, English and Swedish audio renditions, English WebVTT)
 * switches to a real ffmpeg live source with its own English audio rendition and back, then to a source
 * with muxed audio only and back. Every rendition keeps the RFC 8216 live rules with its seams at the
 * same instants; hls.js in Chromium plays through the four switches with 0 stalls, its audio buffered
 * across them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { Engine } from '../../engine-container/src/engine';
import type { ScheduleEvent } from '../../engine-container/src/types';
import { ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { type BrowserPlayback, chromiumAvailable, describeErrors, playInBrowser } from '../support/browser';
import { ensureFixtures } from '../support/fixtures';
import {
  type MediaPlaylist,
  type MediaSegment,
  parseMasterPlaylist,
  parseMediaPlaylist,
} from '../support/hls-playlist';
import { checkReloads } from '../support/live-rules';
import { type LiveSource, startLiveSource } from '../support/live-source';
import { waitOnAir } from '../support/on-air';
import { describeStalls, streamHaltProblems } from '../support/stall-kinds';
import { type StaticServer, startStaticServer } from '../support/static-server';

const EVENT_MS = 14_000;
let origin: StaticServer;
let demuxed: LiveSource;
let muxed: LiveSource;
let engine: Engine;
let base: string;
let events: ScheduleEvent[] = [];

beforeAll(async () => {
  const fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  [demuxed, muxed] = await Promise.all([startLiveSource({ demuxedAudio: true }), startLiveSource()]);
  const vod = `${origin.url}/${fixtures.demuxed.path}`;
  engine = new Engine(new ScriptedAssetManager(() => vodResponse(vod)), {
    port: 0,
    host: '127.0.0.1',
    useDemuxedAudio: true,
    useVTTSubtitles: true,
    scheduleRefreshIntervalMs: 1000,
    channelManager: { getChannels: () => [{ id: 'sport', name: 'Sport' }] },
    streamSwitchManager: { getSchedule: async () => events },
  });
  await engine.start();
  base = `http://127.0.0.1:${engine.port}/channels/sport`;
  await waitOnAir(`${base}/master.m3u8`, 30_000);
}, 60_000);

afterAll(async () => {
  await demuxed?.close();
  await muxed?.close();
  await engine?.stop();
  await origin?.close();
});

const text = async (url: string) => (await fetch(url)).text();
const from = (s: LiveSource) => (uri: string) => uri.startsWith(s.url.replace('master.m3u8', ''));
const liveEvent = (eventId: string, s: LiveSource, start: number): ScheduleEvent => ({
  eventId,
  assetId: eventId,
  title: eventId,
  type: 1,
  start_time: start,
  end_time: start + EVENT_MS,
  uri: s.url,
});

function segmentsSeen(reloads: MediaPlaylist[]): MediaSegment[] {
  const byMsn = new Map<number, MediaSegment>();
  for (const r of reloads) for (const s of r.segments) byMsn.set(s.mediaSequence, s);
  return [...byMsn.values()].sort((a, b) => a.mediaSequence - b.mediaSequence);
}

const seams = (segments: MediaSegment[]) =>
  segments.filter((s) => s.discontinuity).map((s) => [s.programDateTimeMs, s.discontinuitySequence]);

describe('live mixing on a channel with demuxed audio', () => {
  it("plays a source's audio rendition, then a muxed source's audio, through LIVE events: every rendition switches at the same instants, hls.js never halts for want of the stream", async () => {
    const master = parseMasterPlaylist(await text(`${base}/master.m3u8`));
    const paths = ['0.m3u8', ...master.renditions.flatMap((r) => (r.uri ? [r.uri] : []))];
    const audioPaths = paths.filter((p) => p.startsWith('audio/'));
    expect(audioPaths).toHaveLength(2);
    const start1 = Date.now() + 14_000;
    const start2 = start1 + EVENT_MS + 8000;
    const until = start2 + EVENT_MS + 10_000;
    events = [liveEvent('demuxed', demuxed, start1), liveEvent('muxed', muxed, start2)];
    // Until the player is back on VOD2Live after the second event: on a busy machine it may be more
    // than the 10 s margin behind the live edge, so the wall clock alone ends its watch too early.
    const muxedPrefix = JSON.stringify(muxed.url.replace('master.m3u8', ''));
    const backFromMuxed = `((f) => { const i = f.findIndex((x) => x.url.startsWith(${muxedPrefix}));
      return i >= 0 && f.slice(i).some((x) => !x.url.startsWith(${muxedPrefix})); })(window.__report.frags)`;
    const watchS = (until - Date.now()) / 1000;
    const browser: Promise<BrowserPlayback | undefined> = chromiumAvailable()
      ? playInBrowser(`${base}/master.m3u8`, { seconds: watchS + 30, until: backFromMuxed })
      : Promise.resolve(undefined);

    const reloads = new Map(paths.map((p) => [p, [] as MediaPlaylist[]]));
    let previous = '';
    while (Date.now() < until) {
      previous = await waitFor(
        () => text(`${base}/0.m3u8`),
        (body) => body !== previous,
        { what: 'the next playlist', timeoutMs: 10_000 },
      );
      for (const [p, list] of reloads) list.push(parseMediaPlaylist(await text(`${base}/${p}`)));
    }
    const seen = new Map([...reloads].map(([p, list]) => [p, segmentsSeen(list)]));
    for (const [p, list] of reloads) expect(checkReloads(list), p).toEqual([]);
    const video = seen.get('0.m3u8')!;
    for (const [p, list] of seen) expect(seams(list), p).toEqual(seams(video));
    for (const source of [demuxed, muxed]) {
      const live = video.filter((s) => from(source)(s.uri));
      expect(live.length).toBeGreaterThanOrEqual(EVENT_MS / 2000 - 1);
      expect(live.filter((s) => s.discontinuity)).toEqual([live[0]]);
      expect(live.every((s) => /\/v0_\d+\.ts$/.test(s.uri))).toBe(true);
      for (const p of audioPaths) {
        const audio = seen.get(p)!.filter((s) => from(source)(s.uri));
        // The same segments at the same instants: a source's audio segments end on AAC frames, so one
        // may start up to an audio frame (21 ms) from its video; they agree within a video frame (40 ms).
        expect(audio.length, p).toBe(live.length);
        const apart = audio.map((s, k) => Math.abs(s.programDateTimeMs! - live[k]!.programDateTimeMs!));
        expect(
          apart.filter((ms) => ms > 40),
          p,
        ).toEqual([]);
        // The demuxed source's only (English) rendition for both languages; the muxed source's
        // reference variant (video and sound) for both.
        const want = source === demuxed ? /\/vEnglish_\d+\.ts$/ : /\/v0_\d+\.ts$/;
        expect(
          audio.every((s) => want.test(s.uri)),
          p,
        ).toBe(true);
      }
    }

    const play = await browser;
    if (!play) return;
    const context = () =>
      `stalls ${play.stalls}; errors: ${describeErrors(play.errors)}\nhalts: ${describeStalls(play.judgedStalls) || '(none)'}`;
    const frags = play.raw.frags;
    const audioStarts = [...new Set(play.raw.audioFrags.map((f) => f.start))].sort((a, b) => a - b);
    const around: string[] = [];
    for (const source of [demuxed, muxed]) {
      const first = frags.find((f) => from(source)(f.url));
      const after = frags.find((f) => first && f.atMs > first.atMs && !from(source)(f.url));
      expect(first, 'hls.js reached the live segments').toBeDefined();
      expect(after, 'hls.js reached VOD2Live after the event').toBeDefined();
      // Audio fragments cover the media timeline from before the switch in to after the switch out.
      const covered = audioStarts.filter((s) => s >= first!.start! - 4 && s <= after!.start! + 4);
      expect(covered.length).toBeGreaterThanOrEqual(EVENT_MS / 2000);
      expect(covered.slice(1).filter((s, i) => s - covered[i]! > 2.5)).toEqual([]);
      around.push(`${covered.length} around ${source === demuxed ? 'the demuxed' : 'the muxed'} event`);
    }
    console.log(
      `live renditions e2e: hls.js played ${play.playedSeconds.toFixed(1)} s, ${play.discontinuitiesCrossed} ` +
        `discontinuities crossed, ${play.raw.audioFrags.length} audio fragments (${around.join(', ')}); ${context()}`,
    );
    expect(play.fatalErrors, context()).toEqual([]);
    // No halt of the stream's making; one a starved player made of its own is printed (stall-kinds.ts).
    expect(streamHaltProblems(play), context()).toEqual([]);
    expect(play.playedSeconds + play.playersHaltSeconds, context()).toBeGreaterThan(watchS - 15);
  }, 120_000);
});
