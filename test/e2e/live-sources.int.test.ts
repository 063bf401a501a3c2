/**
 * Live sources as packagers make them, end to end (docs/live-mixing.md), each shape through a switch
 * in and out, played in hls.js in Chromium:
 * - a channel of TS VODs with 2 s segments and demuxed audio (the `demuxed` fixture) switches to a real
 *   ffmpeg `-re` CMAF source (one track per file: video-only rungs and an audio rendition) with
 *   ffmpeg's usual live window (`-hls_segment_type fmp4 -hls_list_size 6 -hls_flags delete_segments`:
 *   each segment deleted one segment after it leaves the playlist): the source answers no 404 for a
 *   segment the channel still listed;
 * - a channel of CMAF VODs (the `cmaf` fixture) switches to an ffmpeg TS source with demuxed audio.
 * The channel lists the right init section on every segment, the RFC 8216 rules hold on every reload.
 * What a starved player does of its own (a load it abandons, a 404 a window behind, a halt with data
 * held) is printed, not failed: test/support/stall-kinds.ts.
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
  type HlsErrorEvent,
  isSegmentLoadError,
  playInBrowser,
} from '../support/browser';
import { ensureFixtures } from '../support/fixtures';
import { type MediaPlaylist, parseMasterPlaylist, parseMediaPlaylist } from '../support/hls-playlist';
import { checkReloads } from '../support/live-rules';
import { type LiveSource, startLiveSource } from '../support/live-source';
import { waitOnAir } from '../support/on-air';
import {
  describeStalls,
  droppedBefore,
  excuseGivenUpHoles,
  isPlayersNote,
  type Listing,
  seamAudioHoleHalts,
} from '../support/stall-kinds';
import { type StaticServer, startStaticServer } from '../support/static-server';

/** The VODs' and the source's segment length: a player sits 3 of them (6 s) behind the live edge. */
const TARGET_DURATION_S = 2;
let origin: StaticServer;
let fixtures: Awaited<ReturnType<typeof ensureFixtures>>;
const sources: LiveSource[] = [];
const engines: Engine[] = [];
/** Each channel's vod_error events, by its base URL: what the engine said when a check fails. */
const vodErrors = new Map<string, string[]>();

beforeAll(async () => {
  fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
}, 60_000);

afterAll(async () => {
  for (const s of sources) await s.close();
  for (const e of engines) await e.stop();
  await origin?.close();
});

/** A channel on one engine playing `vodPath` (VOD2Live) and the LIVE events `events()` gives. */
async function channelOn(vodPath: string, events: () => ScheduleEvent[]): Promise<string> {
  const vod = `${origin.url}/${vodPath}`;
  const engine = new Engine(new ScriptedAssetManager(() => vodResponse(vod)), {
    port: 0,
    host: '127.0.0.1',
    useDemuxedAudio: true,
    useVTTSubtitles: true,
    forceTargetDuration: TARGET_DURATION_S,
    scheduleRefreshIntervalMs: 1000,
    channelManager: { getChannels: () => [{ id: 'mix', name: 'Mix' }] },
    streamSwitchManager: { getSchedule: async () => events() },
  });
  engines.push(engine);
  await engine.start();
  const base = `http://127.0.0.1:${engine.port}/channels/mix`;
  const reported: string[] = [];
  vodErrors.set(base, reported);
  engine.events.subscribe((e) => {
    if (e.type === 'vod_error') reported.push(`${e.time} ${JSON.stringify(e.data)}`);
  });
  await waitOnAir(`${base}/master.m3u8`, 30_000);
  return base;
}

const text = async (url: string) => (await fetch(url)).text();

function segmentsSeen(reloads: MediaPlaylist[]) {
  const byMsn = new Map<number, MediaPlaylist['segments'][number]>();
  for (const r of reloads) for (const s of r.segments) byMsn.set(s.mediaSequence, s);
  return [...byMsn.values()].sort((a, b) => a.mediaSequence - b.mediaSequence);
}

interface Expected {
  /** Is this the EXT-X-MAP a live segment of the video (0), and of the audio, playlist must have? */
  videoMap: (mapUri: string | undefined) => boolean;
  audioMap: (mapUri: string | undefined) => boolean;
  /** More checks on the live segments of the video playlist and on its reloads' text. */
  more?: (live: MediaPlaylist['segments'], texts: string[]) => void;
}

interface Live {
  source: LiveSource;
  want: Expected;
}

/** A media playlist of the channel as it arrived: its segments' URLs. */
const listed = (base: string, playlist: string, body: string): Listing => ({
  playlist,
  wallMs: Date.now(),
  uris: new Set(parseMediaPlaylist(body).segments.map((s) => new URL(s.uri, `${base}/`).href)),
});

/** Reloads each of the channel's media playlists `paths` once, each recorded as it arrived. */
const reloadAll = (base: string, paths: readonly string[], listings: Listing[]): Promise<string[]> =>
  Promise.all(
    paths.map(async (playlist) => {
      const body = await text(`${base}/${playlist}`);
      listings.push(listed(base, playlist, body));
      return body;
    }),
  );

/**
 * A live source's segment answered 404 to the player is the stream's fault unless the channel had
 * already stopped listing it (a player a window behind, on a starved machine): `droppedBefore`.
 */
const stale = (listings: readonly Listing[]) => (url: string | null, atMs: number) =>
  url !== null && droppedBefore(listings, url, atMs);

/**
 * Schedules a LIVE event of each source, from 15 s from now (one of 30 s, or several of 20 s with 8 s
 * of VOD between them), reloads every media playlist of the channel while hls.js plays it, until the
 * player is 4 s past the seam out of the last (20 s after its end at most), and checks the video and
 * first audio playlists' reloads and the play. Returns the reloads, as they arrived.
 */
async function throughLive(
  base: string,
  setEvents: (e: ScheduleEvent[]) => void,
  lives: Live[],
): Promise<Listing[]> {
  const master = parseMasterPlaylist(await text(`${base}/master.m3u8`));
  const audioPath = master.renditions.find((r) => r.uri?.startsWith('audio/'))!.uri!;
  const mediaPaths = [
    ...new Set([...master.variants.map((v) => v.uri), ...master.renditions.flatMap((r) => r.uri ?? [])]),
  ].filter((p) => p !== '0.m3u8');
  const listings: Listing[] = [];
  const eventMs = lives.length === 1 ? 30_000 : 20_000;
  const first = Date.now() + 15_000;
  const events = lives.map(({ source }, k) => {
    const start = first + k * (eventMs + 8000);
    return {
      eventId: `live${k}`,
      assetId: `live${k}`,
      title: 'Live',
      type: 1,
      start_time: start,
      end_time: start + eventMs,
      uri: source.url,
    };
  });
  const until = events.at(-1)!.end_time + 20_000;
  setEvents(events);
  const watchS = (until - Date.now()) / 1000;
  const sourceBases = lives.map(({ source }) => source.url.replace('master.m3u8', ''));
  // The player stops once it has played 4 s of the channel after the last source's fragments (the seam
  // out, and what follows it); the reloads stop with it, having listed that seam some 6 s earlier. A
  // player that failed leaves the reloads to run their course, and its own checks below to say why.
  const pastTheSeamOut = `(() => {
    const f = window.__report.frags;
    const last = f.findLastIndex((x) => x.url.startsWith(${JSON.stringify(sourceBases.at(-1))}));
    const next = last < 0 ? undefined : f[last + 1];
    const now = window.__report.samples[window.__report.samples.length - 1];
    return !!next && !${JSON.stringify(sourceBases)}.some((b) => next.url.startsWith(b)) && !!now && now.currentTime >= (next.start ?? 0) + 4;
  })()`;
  let played = false;
  const browser: Promise<BrowserPlayback | undefined> = chromiumAvailable()
    ? playInBrowser(`${base}/master.m3u8`, { seconds: watchS, until: pastTheSeamOut }).then((play) => {
        played = play.started && play.fatalErrors.length === 0;
        return play;
      })
    : Promise.resolve(undefined);

  const fromAny = (uri: string) => sourceBases.some((b) => uri.startsWith(b));
  const video: MediaPlaylist[] = [];
  const texts: string[] = [];
  const audio: MediaPlaylist[] = [];
  let previous = '';
  while (Date.now() < until && !played) {
    previous = await waitFor(
      () => text(`${base}/0.m3u8`),
      (body) => body !== previous,
      { what: "the channel's next playlist", timeoutMs: 20_000 },
    );
    listings.push(listed(base, '0.m3u8', previous));
    video.push(parseMediaPlaylist(previous));
    texts.push(previous);
    const others = await reloadAll(base, mediaPaths, listings);
    audio.push(parseMediaPlaylist(others[mediaPaths.indexOf(audioPath)]!));
  }
  expect(checkReloads(video)).toEqual([]);
  expect(checkReloads(audio)).toEqual([]);
  for (const [k, { want }] of lives.entries()) {
    const isLive = (uri: string) => uri.startsWith(sourceBases[k]!);
    for (const [reloads, mapOf] of [
      [video, want.videoMap],
      [audio, want.audioMap],
    ] as const) {
      const segments = segmentsSeen(reloads);
      const live = segments.filter((s) => isLive(s.uri));
      const errors = `the engine's vod_error events:\n${vodErrors.get(base)!.join('\n') || '(none)'}`;
      expect(live.length, errors).toBeGreaterThanOrEqual(eventMs / 2000 - 3);
      expect(live.filter((s) => !mapOf(s.map?.uri))).toEqual([]);
      const after = segments[segments.indexOf(live.at(-1)!) + 1]!;
      expect(live.filter((s) => s.discontinuity)).toEqual([live[0]]);
      expect(after.discontinuity).toBe(true);
      expect(after.map?.uri).not.toBe(live.at(-1)!.map?.uri);
      expect(fromAny(after.map?.uri ?? '')).toBe(false);
      if (reloads === video) want.more?.(live, texts);
    }
  }

  const play = await browser;
  if (play) {
    // The player's own doing, printed and not judged: a load it abandoned (isPlayersNote; its holes are
    // the player's in play.judgedStalls already), a 404 for a segment the channel had stopped listing (a
    // starved page a window behind), and a hole where it gave one of those up.
    const isStale = stale(listings);
    const stale404s = play.errors.filter((e) => e.status === 404 && isStale(e.url, e.wallMs));
    const halts = excuseGivenUpHoles(play.judgedStalls, stale404s);
    const context = () =>
      `stalls ${play.stalls}; errors: ${describeErrors(play.errors)}\nhalts: ${describeStalls(halts) || '(none)'}`;
    console.log(
      `hls.js: played ${play.playedSeconds.toFixed(1)} s, ${play.discontinuitiesCrossed} discontinuities crossed; ${context()}`,
    );
    // A play that never started checks nothing below: said first (a clean-clone run, 2026-11-29, failed
    // on "discontinuities crossed 0" with its only error an aborted fragment at 2.2 s).
    expect(play.started, `hls.js played within its start window; ${context()}`).toBe(true);
    expect(play.fatalErrors, context()).toEqual([]);
    const players = (e: HlsErrorEvent) => stale404s.includes(e) || isPlayersNote(e, halts);
    expect(
      play.errors.filter((e) => isSegmentLoadError(e) && !players(e)),
      context(),
    ).toEqual([]);
    // Nothing hls.js says about fetching, decrypting or parsing a live segment or an init section of
    // the source. How the buffer meets at a seam (an append that adds nothing, a hole jumped) is the
    // seams' business (issue 20, deliverable 3): printed above, not judged here.
    const seam = new Set([
      'bufferAppendNoProgress',
      'bufferSeekOverHole',
      'bufferStalledError',
      'bufferNudgeOnStall',
    ]);
    expect(
      play.errors.filter((e) => fromAny(e.url ?? '') && !seam.has(e.details) && !players(e)),
      context(),
    ).toEqual([]);
    // Each encode cuts its audio on its own AAC grid: at a seam the TS VOD's audio ends up to a frame
    // before its video and the CMAF source's starts up to a frame after (hls.js places fMP4 audio by
    // its timestamps), a hole no listing closes; Chromium bridges one frame, not two. That halt (and
    // the one where hls.js lands past it) is the seams' too, printed. Any other halt the stream caused
    // fails; one the player caused (it held data, or waited for a fragment published in time: a
    // starved machine, stall-kinds.ts) is printed.
    const seamStarts = play.raw.frags
      .filter((f, i, all) => i > 0 && f.cc !== all[i - 1]!.cc)
      .map((f) => f.start ?? Number.NaN);
    const seamHalts = seamAudioHoleHalts(halts, seamStarts);
    expect(
      halts.filter((s) => s.stream && !seamHalts.includes(s)),
      context(),
    ).toEqual([]);
    expect(halts.length).toBeGreaterThanOrEqual(play.stalls);
    expect(play.discontinuitiesCrossed).toBeGreaterThanOrEqual(2);
  }
  return listings;
}

describe('live sources as packagers make them, in hls.js', () => {
  // Two players at a time (test/support/README.md, "The run"), each on its own engine and source.
  describe.concurrent('one source each, side by side', () => {
    it("plays a CMAF source with a 6-segment window in and out of a TS channel with its init sections, no 404 and no halt of the stream's", async () => {
      const source = await startLiveSource({ cmaf: true, demuxedAudio: true });
      sources.push(source);
      let events: ScheduleEvent[] = [];
      const base = await channelOn(fixtures.demuxed.path, () => events);
      const init = (name: string) => (uri: string | undefined) =>
        uri === source.url.replace('master.m3u8', name);
      const listings = await throughLive(base, (e) => (events = e), [
        { source, want: { videoMap: init('init_0.mp4'), audioMap: init('init_English.mp4') } },
      ]);
      const sourceSegments = source.requests().filter((r) => /\.(m4s|mp4)$/.test(r.path));
      // A 404 for a segment the channel had stopped listing is a player's a window behind: printed.
      const isStale = stale(listings);
      const notFound = sourceSegments.filter(
        (r) => r.status === 404 && !isStale(new URL(r.path, source.url).href, r.atMs),
      );
      console.log(
        `CMAF live source: ${sourceSegments.length} segment requests at the source, ${notFound.length} answered 404`,
      );
      expect(sourceSegments.length).toBeGreaterThan(20);
      expect(notFound).toEqual([]);
    }, 150_000);

    it("plays a TS source in and out of a CMAF channel: each TS segment with a map of its own PAT/PMT, no halt of the stream's", async () => {
      const source = await startLiveSource({ demuxedAudio: true });
      sources.push(source);
      let events: ScheduleEvent[] = [];
      const base = await channelOn(fixtures.cmaf.path, () => events);
      // A TS item in a window that lists fMP4 gets an EXT-X-MAP of its own first segment's PAT/PMT.
      const ownTs = (rendition: string) => (uri: string | undefined) =>
        uri?.startsWith(source.url.replace('master.m3u8', rendition)) === true && uri.endsWith('.ts');
      await throughLive(base, (e) => (events = e), [
        { source, want: { videoMap: ownTs('v0_'), audioMap: ownTs('v') } },
      ]);
    }, 150_000);
  });

  it("plays an AES-128 TS source, then a byte-range CMAF source, in and out of a TS channel: keys and ranges passed through, no halt of the stream's", async () => {
    const [aes, ranges] = await Promise.all([
      startLiveSource({ demuxedAudio: true, aes128: true }),
      startLiveSource({ demuxedAudio: true, cmaf: true, singleFile: true }),
    ]);
    sources.push(aes, ranges);
    let events: ScheduleEvent[] = [];
    const base = await channelOn(fixtures.demuxed.path, () => events);
    const at = (s: LiveSource, name: string) => s.url.replace('master.m3u8', name);
    const key = `#EXT-X-KEY:METHOD=AES-128,URI="${at(aes, 'key.bin')}",IV=0x`;
    await throughLive(base, (e) => (events = e), [
      {
        source: aes,
        want: {
          videoMap: (uri) => uri === undefined,
          audioMap: (uri) => uri === undefined,
          more: (live, texts) => {
            const withKey = texts.filter((t) => t.includes(key));
            expect(withKey.length).toBeGreaterThan(0);
            // The key in force on the first live segment of every playlist that lists one, and none after.
            for (const t of withKey)
              expect(t.indexOf(key)).toBeLessThan(t.indexOf(live.find((s) => t.includes(s.uri))!.uri));
            expect(texts.some((t) => t.includes('#EXT-X-KEY:METHOD=NONE'))).toBe(true);
          },
        },
      },
      {
        source: ranges,
        want: {
          videoMap: (uri) => uri === at(ranges, 'v0.m4s'),
          audioMap: (uri) => uri === at(ranges, 'vEnglish.m4s'),
          more: (live) => {
            expect(
              live.every((s) => s.uri === at(ranges, 'v0.m4s') && /^\d+@\d+$/.test(s.byteRange ?? '')),
            ).toBe(true);
          },
        },
      },
    ]);
    // Two LIVE events one after the other: up to 110 s in full runs on two cores; a guard, not a limit.
  }, 240_000);
});
