/**
 * Live sources as packagers make them, end to end (docs/live-mixing.md): a channel of TS VODs with
 * 2 s segments and demuxed audio (the `demuxed` fixture) switches to a real ffmpeg `-re` CMAF source
 * (one track per file: video-only rungs and an audio rendition) with ffmpeg's usual live window
 * (`-hls_segment_type fmp4 -hls_list_size 6 -hls_flags delete_segments`: each segment deleted one
 * segment after it leaves the playlist), and back. The channel lists the source's init sections on its
 * live segments, the RFC 8216 rules hold on every reload, the source answers no 404, and hls.js in
 * Chromium plays through both switches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { Engine } from '../../engine-container/src/engine';
import type { ScheduleEvent } from '../../engine-container/src/types';
import { ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import {
  type BrowserPlayback,
  chromiumAvailable,
  describeErrors,
  isSegmentLoadError,
  playInBrowser,
} from '../support/browser';
import { ensureFixtures } from '../support/fixtures';
import { type MediaPlaylist, parseMasterPlaylist, parseMediaPlaylist } from '../support/hls-playlist';
import { checkReloads } from '../support/live-rules';
import { type LiveSource, startLiveSource } from '../support/live-source';
import { waitOnAir } from '../support/on-air';
import { type StaticServer, startStaticServer } from '../support/static-server';

/** The VODs' and the source's segment length: a player sits 3 of them (6 s) behind the live edge. */
const TARGET_DURATION_S = 2;
let origin: StaticServer;
let source: LiveSource;
let engine: Engine;
let base: string;
let events: ScheduleEvent[] = [];

beforeAll(async () => {
  const fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  source = await startLiveSource({ cmaf: true, demuxedAudio: true });
  const vod = `${origin.url}/${fixtures.demuxed.path}`;
  engine = new Engine(new ScriptedAssetManager(() => vodResponse(vod)), {
    port: 0,
    host: '127.0.0.1',
    useDemuxedAudio: true,
    useVTTSubtitles: true,
    forceTargetDuration: TARGET_DURATION_S,
    scheduleRefreshIntervalMs: 1000,
    channelManager: { getChannels: () => [{ id: 'cmaf', name: 'CMAF live' }] },
    streamSwitchManager: { getSchedule: async () => events },
  });
  await engine.start();
  base = `http://127.0.0.1:${engine.port}/channels/cmaf`;
  await waitOnAir(`${base}/master.m3u8`, 30_000);
}, 60_000);

afterAll(async () => {
  await source?.close();
  await engine?.stop();
  await origin?.close();
});

const text = async (url: string) => (await fetch(url)).text();

function segmentsSeen(reloads: MediaPlaylist[]) {
  const byMsn = new Map<number, MediaPlaylist['segments'][number]>();
  for (const r of reloads) for (const s of r.segments) byMsn.set(s.mediaSequence, s);
  return [...byMsn.values()].sort((a, b) => a.mediaSequence - b.mediaSequence);
}

describe('a CMAF live source with a 6-segment window', () => {
  it('plays in and out of a TS channel in hls.js with its init sections, no 404 and no stall', async () => {
    const master = parseMasterPlaylist(await text(`${base}/master.m3u8`));
    const audioPath = master.renditions.find((r) => r.uri?.startsWith('audio/'))!.uri!;
    const start = Date.now() + 15_000;
    const end = start + 30_000;
    const until = end + 20_000;
    events = [
      {
        eventId: 'cmaf',
        assetId: 'cmaf',
        title: 'CMAF',
        type: 1,
        start_time: start,
        end_time: end,
        uri: source.url,
      },
    ];
    const watchS = (until - Date.now()) / 1000;
    const browser: Promise<BrowserPlayback | undefined> = chromiumAvailable()
      ? playInBrowser(`${base}/master.m3u8`, { seconds: watchS })
      : Promise.resolve(undefined);

    const isLive = (uri: string) => uri.startsWith(source.url.replace('master.m3u8', ''));
    const video: MediaPlaylist[] = [];
    const audio: MediaPlaylist[] = [];
    let previous = '';
    while (Date.now() < until) {
      previous = await waitFor(
        () => text(`${base}/0.m3u8`),
        (body) => body !== previous,
        { what: "the channel's next playlist", timeoutMs: 20_000 },
      );
      video.push(parseMediaPlaylist(previous));
      audio.push(parseMediaPlaylist(await text(`${base}/${audioPath}`)));
    }
    expect(checkReloads(video)).toEqual([]);
    expect(checkReloads(audio)).toEqual([]);

    const init = (name: string) => source.url.replace('master.m3u8', name);
    for (const [reloads, initName] of [
      [video, 'init_0.mp4'],
      [audio, 'init_English.mp4'],
    ] as const) {
      const segments = segmentsSeen(reloads);
      const live = segments.filter((s) => isLive(s.uri));
      expect(live.length).toBeGreaterThanOrEqual(12);
      expect(live.every((s) => s.map?.uri === init(initName))).toBe(true);
      const after = segments[segments.indexOf(live.at(-1)!) + 1]!;
      expect(live.filter((s) => s.discontinuity)).toEqual([live[0]]);
      expect(after.discontinuity).toBe(true);
      expect(after.map?.uri).not.toBe(init(initName));
    }

    const sourceSegments = source.requests().filter((r) => /\.(m4s|mp4)$/.test(r.path));
    const notFound = sourceSegments.filter((r) => r.status === 404);
    console.log(
      `CMAF live source: ${sourceSegments.length} segment requests at the source, ${notFound.length} answered 404`,
    );
    expect(notFound).toEqual([]);

    const play = await browser;
    if (play) {
      const context = () => `stalls ${play.stalls}; errors: ${describeErrors(play.errors)}`;
      console.log(
        `hls.js: played ${play.playedSeconds.toFixed(1)} s, ${play.discontinuitiesCrossed} discontinuities crossed; ${context()}`,
      );
      expect(play.fatalErrors, context()).toEqual([]);
      expect(play.errors.filter(isSegmentLoadError), context()).toEqual([]);
      expect(play.stalls, context()).toBe(0);
      expect(play.discontinuitiesCrossed).toBeGreaterThanOrEqual(2);
    }
  }, 150_000);
});
