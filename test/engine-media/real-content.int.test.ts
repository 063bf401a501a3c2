/**
 * Real content through the product (docs/media.md): a CMAF VOD with two audio languages in their own
 * renditions and two WebVTT languages, made a Loop channel through the channel API (every loop is a
 * VOD change: a discontinuity and the map again), played by hls.js in Chromium and by ffmpeg; the
 * same VOD with a TS preroll (muxed audio, EIA-608 captions declared), so the channel changes
 * container and audio shape every few seconds, checked against RFC 8216's live rules on every
 * rendition and played by hls.js across container changes (docs/media.md, "TS after fMP4").
 * Every case only reads the channels, and each waits on the wall clock (a player, ffmpeg, reloads)
 * far more than it computes: the first two groups run at once, so the file takes about its two players'
 * time, not the sum of every case's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSystem, startSystem } from '../../local/system';
import { type BrowserPlayback, chromiumAvailable, describeErrors, playInBrowser } from '../support/browser';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import { checkLivePlaylistRules, listMediaPlaylists, playWithFfmpeg } from '../support/hls-client';
import { parseMasterPlaylist, parseMediaPlaylist } from '../support/hls-playlist';
import { waitOnAir } from '../support/on-air';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { describeStalls, isPlayersNote, streamHaltProblems } from '../support/stall-kinds';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { seamStarts } from './support/av-starts';
import { itemStarts, mediaTimePerItem } from './support/items';

let system: RunningSystem;
let origin: StaticServer;
let fixtures: FixturePaths;
/** Loop over the CMAF VOD with the captioned TS VOD as a 6 s preroll: TS and fMP4 alternate. */
let mixed: string;
/** Loop over the CMAF VOD alone. */
let cmaf: string;
/** Loop over the captioned TS VOD alone. */
let captioned: string;
/** Loop over the 6 s TS preroll alone: a TS item (audio 21 ms before video) every 6 s. */
let tsLoop: string;

async function createChannel(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${system.urls.channel}/channel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-jwt': `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { playback: string }).playback;
}

async function trialToken(email: string): Promise<string> {
  const res = await fetch(`${system.urls.channel}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ company: 'Acme', email }),
  });
  return ((await res.json()) as { token: string }).token;
}

beforeAll(async () => {
  fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    services: ['channel', 'engine'],
    env: { LOG_LEVEL: 'silent', ENGINE_CHANNEL_REFRESH_MS: '500', ENGINE_FORCE_TARGET_DURATION: '2' },
  });
  // A trial token makes at most 3 channels: the TS loop is another tenant's.
  const [token, tsToken] = (await Promise.all(['media@acme.test', 'ts@acme.test'].map(trialToken))) as [
    string,
    string,
  ];
  const vod = (f: { path: string }) => `${origin.url}/${f.path}`;
  [mixed, cmaf, captioned, tsLoop] = await Promise.all([
    createChannel(token, {
      name: 'media-mixed',
      type: 'Loop',
      url: vod(fixtures.cmaf),
      opts: { preroll: { url: vod(fixtures.captioned), duration: '6000' } },
    }),
    createChannel(token, { name: 'media-cmaf', type: 'Loop', url: vod(fixtures.cmaf) }),
    createChannel(token, { name: 'media-cc', type: 'Loop', url: vod(fixtures.captioned) }),
    createChannel(tsToken, { name: 'media-ts-loop', type: 'Loop', url: vod(fixtures.preroll) }),
  ]);
  await Promise.all([mixed, cmaf, captioned, tsLoop].map((url) => waitOnAir(url)));
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await origin?.close();
});

/** No halt that was the stream's (stall-kinds.ts); the player's are printed, not failed on. */
function expectNoStreamStalls(played: BrowserPlayback): void {
  if (played.judgedStalls.length) console.log(`halts:\n${describeStalls(played.judgedStalls)}`);
  expect(streamHaltProblems(played)).toEqual([]);
}

/**
 * The playhead moved for `seconds` of the play, save where a halt judged the player's held it (a busy
 * machine fetched, appended or decoded late): a check of the stream, not of the machine's speed. The
 * message tells where the rest went: each halt, each seek and where it landed.
 */
function expectPlayedAtLeast(played: BrowserPlayback, seconds: number): void {
  const seeks = played.raw.mediaEvents
    .filter((e) => e.type === 'seeking')
    .map((e) => `${(e.atMs / 1000).toFixed(1)}s to ${e.currentTime.toFixed(2)}`);
  const context =
    `played ${played.playedSeconds.toFixed(1)} s in ${played.wallSeconds.toFixed(1)} s, ` +
    `${played.playersHaltSeconds.toFixed(1)} s of it held in the player's halts; ` +
    `seeks: ${seeks.join(', ') || 'none'}; halts:\n${describeStalls(played.judgedStalls) || '(none)'}`;
  expect(played.playedSeconds + played.playersHaltSeconds, context).toBeGreaterThanOrEqual(seconds);
}

const renditionsOf = async (master: string) => {
  const text = await (await fetch(master)).text();
  return parseMasterPlaylist(text);
};

describe.concurrent('a channel made from a CMAF VOD with two audio and two subtitle languages', () => {
  it('declares both audio languages, both subtitle languages and, over a captioned source, its captions', async () => {
    const master = await renditionsOf(cmaf);
    const of = (type: string) => master.renditions.filter((r) => r.type === type).map((r) => r.language);
    expect(of('AUDIO')).toEqual(['en', 'sv']);
    expect(of('SUBTITLES')).toEqual(['en', 'sv']);
    const cc = await (await fetch(captioned)).text();
    expect(cc).toContain('TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",LANGUAGE="en",NAME="English"');
    expect(cc).toContain('INSTREAM-ID="CC1"');
    expect(cc).not.toContain('CLOSED-CAPTIONS=NONE');
  });

  it.skipIf(!chromiumAvailable())(
    'plays 60 s in hls.js across VOD changes with no stream stall, switching audio with sound going on and showing Swedish cues',
    async () => {
      const played = await playInBrowser(cmaf, {
        seconds: 60,
        audioSwitch: { lang: 'sv', atSec: 4 },
        subtitleLang: 'sv',
      });
      const raw = played.raw;
      expect(played.fatalErrors, describeErrors(played.errors)).toEqual([]);
      expectNoStreamStalls(played);
      expectPlayedAtLeast(played, 55);
      expect(played.discontinuitiesCrossed).toBeGreaterThanOrEqual(4);
      expect(raw.audioTracks.map((t) => t.lang)).toEqual(['en', 'sv']);
      // After the switch, Swedish audio was buffered ahead of the playhead and playback went on.
      const switchedAt = raw.audioSwitch?.atMs ?? Number.POSITIVE_INFINITY;
      const swedishAhead = raw.audioFrags.filter(
        (f) => f.atMs > switchedAt && f.lang === 'sv' && f.start > f.currentTime,
      );
      expect(swedishAhead.length).toBeGreaterThan(0);
      const lastSample = raw.samples.at(-1)!;
      expect(lastSample.currentTime).toBeGreaterThan((raw.audioSwitch?.currentTime ?? 0) + 40);
      // Cues in Swedish, and only Swedish, also after the first VOD change was crossed.
      const firstChange = raw.frags.find((f, i) => i > 0 && f.cc !== raw.frags[i - 1]!.cc)!;
      expect(raw.cues.length).toBeGreaterThan(0);
      expect(raw.cues.every((c) => c.text.startsWith('Svenska subtitle'))).toBe(true);
      expect(raw.cues.some((c) => c.atMs > firstChange.atMs + 2000)).toBe(true);
      // The cue on screen is the one of the segment on screen (2 s cues numbered from 1, seg_000 first),
      // in every item: the WebVTT stays in step with the video across VOD changes. The segment on
      // screen is the one whose media start is the latest at or before the sample's currentTime (by
      // media time, not by when hls.js announced it, which lags on a busy machine); activeCues follow
      // the clock on timeupdate, up to ~250 ms late, so a sample just past a boundary may still show
      // the previous cue.
      const segmentAt = (t: number) => {
        let on: (typeof raw.frags)[number] | undefined;
        for (const f of raw.frags)
          if (f.start !== undefined && f.start <= t + 0.05 && (on?.start ?? -1) <= f.start) on = f;
        return Number(on?.url.match(/seg_(\d+)/)?.[1]);
      };
      const inStep = raw.cues.filter((c) => {
        const cue = Number(c.text.split(' ').at(-1));
        return cue === segmentAt(c.currentTime) + 1 || cue === segmentAt(c.currentTime - 0.3) + 1;
      });
      const inStepNote = `${inStep.length} of ${raw.cues.length} cue samples in step`;
      console.log(inStepNote);
      expect(inStep.length / raw.cues.length, inStepNote).toBeGreaterThanOrEqual(0.9);
    },
    150_000,
  );
});

describe.concurrent('every rendition of a channel alternating TS and CMAF', () => {
  it('keeps the live rules on every reload of every rendition, with one media time per item across them', async () => {
    // 6 rungs: 2 video, 2 audio, 2 subtitles.
    const urls = await listMediaPlaylists(mixed);
    expect(urls).toHaveLength(6);
    const violations = await Promise.all(
      urls.map((url) => checkLivePlaylistRules(url, { reloads: 8, intervalMs: 2000 })),
    );
    expect(violations.flat()).toEqual([]);
    const playlists = await Promise.all(
      urls.map(async (u) => parseMediaPlaylist(await (await fetch(u)).text())),
    );
    const perItem = playlists.map(mediaTimePerItem);
    const [reference, ...others] = perItem;
    expect(reference!.size).toBeGreaterThanOrEqual(2);
    for (const other of others) {
      const shared = [...reference!].filter(([itemStart]) => other.has(itemStart));
      expect(shared.length).toBeGreaterThanOrEqual(1);
      for (const [itemStart, seconds] of shared)
        expect(Math.abs(other.get(itemStart)! - seconds)).toBeLessThanOrEqual(0.04);
    }
  }, 60_000);

  it('decodes in ffmpeg from the audio rendition, each item starting its audio within one frame of its video', async () => {
    const master = await renditionsOf(cmaf);
    const swedish = new URL(
      master.renditions.find((r) => r.type === 'AUDIO' && r.language === 'sv')!.uri!,
      cmaf,
    );
    const video = new URL(master.variants[0]!.uri, cmaf);
    // ffmpeg 5.1 joining this rendition at an item's first segment (its first timestamp is then 0)
    // ends its output at the third item's start: "played only 24.02 s of 26 s" (CI, three times), the
    // sink at EOF right after its second timestamp discontinuity, though both of its offsets are right
    // (+12.01 s each: `-loglevel debug`). Joined anywhere else it plays on; a guard on where it would
    // join lost the race with the live edge under load. 22 s of 12 s items crosses one VOD change or two
    // from any join, and never reaches a third item's start from the first segment of one.
    const played = await playWithFfmpeg(swedish.toString(), { seconds: 22 });
    expect(played.errors, played.stderrTail).toEqual([]);
    const starts = await itemStarts(video.toString(), swedish.toString());
    expect(starts.length, JSON.stringify(starts)).toBeGreaterThanOrEqual(2);
    for (const s of starts)
      expect(Math.abs(s.audioSec - s.videoSec), JSON.stringify(s)).toBeLessThanOrEqual(0.04);
  }, 90_000);

  it('starts audio and video within 40 ms of each other at every seam, TS to CMAF and back, in both languages', async () => {
    const master = await renditionsOf(mixed);
    const video = new URL(master.variants[0]!.uri, mixed).toString();
    const audio = master.renditions
      .filter((r) => r.type === 'AUDIO')
      .map((r) => new URL(r.uri!, mixed).toString());
    expect(audio).toHaveLength(2);
    for (const url of audio) {
      const seams = await seamStarts(video, url);
      const containers = new Set(seams.map((s) => s.uri.split('?')[0]!.split('.').at(-1)));
      expect([...containers].sort(), JSON.stringify(seams)).toEqual(['m4s', 'ts']);
      const apart = seams.map((s) => ({
        ...s,
        apartMs: Math.round(Math.abs(s.audioSec - s.videoSec) * 1000),
      }));
      console.log(`${url.split('/').slice(-2).join('/')}: ${apart.map((s) => `${s.apartMs} ms`).join(', ')}`);
      for (const s of apart) expect(s.apartMs, JSON.stringify(s)).toBeLessThanOrEqual(40);
    }
  }, 60_000);
});

// After the groups above, not beside them: one player at a time (two at once starve each other on a busy
// machine), the other cases beside the first.
describe('a channel alternating TS and CMAF, in hls.js', () => {
  it.skipIf(!chromiumAvailable())(
    'plays 40 s in hls.js across TS/fMP4 changes with no stream stall, no stream error and audio without a hole',
    async () => {
      const played = await playInBrowser(mixed, { seconds: 40 });
      const raw = played.raw;
      // Any error, not only fatal ones: a TS segment parsed with the fMP4 map was a non-fatal
      // fragParsingError that dropped the fragment. Only hls.js's notes on a halt judged the player's
      // (a fragment published in time but buffered late on a busy machine) are not the stream's.
      const streamErrors = played.errors.filter((e) => !isPlayersNote(e, played.judgedStalls));
      expect(streamErrors, describeErrors(played.errors)).toEqual([]);
      expectNoStreamStalls(played);
      expectPlayedAtLeast(played, 35);
      const container = (url: string) => url.split('?')[0]!.split('.').at(-1);
      const changes = raw.frags.filter(
        (f, i) => i > 0 && container(f.url) !== container(raw.frags[i - 1]!.url),
      );
      expect(changes.length, JSON.stringify(raw.frags.map((f) => f.url))).toBeGreaterThanOrEqual(3);
      // The audio rendition (TS with muxed audio, then fMP4 audio) was buffered segment after segment.
      const starts = raw.audioFrags.map((f) => f.start).sort((a, b) => a - b);
      const holes = starts.filter((s, i) => i > 0 && s - starts[i - 1]! > 2.5);
      expect(holes, JSON.stringify(starts)).toEqual([]);
      expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(played.playedSeconds - 4);
    },
    150_000,
  );
});

// Two players side by side (test/support/README.md, "The run"), each on a channel of its own.
describe.concurrent('fragments on hls.js’s timeline', () => {
  describe('a channel of TS items whose audio starts before their video (AAC priming)', () => {
    it.skipIf(!chromiumAvailable())(
      'keeps every fragment where the playlist puts it on hls.js’s timeline, across 4 items and more',
      async () => {
        const played = await playInBrowser(tsLoop, { seconds: 30 });
        const main = (played.raw.bufferedFrags ?? []).filter((f) => f.type === 'main' && f.pdtMs !== null);
        expect(main.length).toBeGreaterThanOrEqual(12); // 4 items of 3 segments
        // hls.js places a fragment where its media time says; the playlist (PDT) where its EXTINFs say.
        // A TS item listed shorter than hls.js plays it moves every later fragment by the difference.
        const [first] = main;
        const shiftsMs = main.map((f) =>
          Math.round((f.start - first!.start - (f.pdtMs! - first!.pdtMs!) / 1000) * 1000),
        );
        console.log(`fragment start less playlist position, ms: ${shiftsMs.join(', ')}`);
        expect(Math.max(...shiftsMs.map(Math.abs)), JSON.stringify(shiftsMs)).toBeLessThanOrEqual(5);
      },
      120_000,
    );
  });

  describe('a CMAF channel (audio in its own renditions) with the engine’s TS slate as its preroll', () => {
    it.skipIf(!chromiumAvailable())(
      'keeps every fragment where the playlist puts it on hls.js’s timeline, loop after loop',
      async () => {
        const token = await trialToken('slate-preroll@acme.test');
        const playback = await createChannel(token, {
          name: 'media-slate-preroll',
          type: 'Loop',
          url: `${origin.url}/${fixtures.cmaf.path}`,
          opts: { preroll: { url: `${system.urls.engine}/slate/master.m3u8`, duration: '4000' } },
        });
        await waitOnAir(playback);
        const played = await playInBrowser(playback, { seconds: 40 });
        const main = (played.raw.bufferedFrags ?? []).filter((f) => f.type === 'main' && f.pdtMs !== null);
        expect(main.length).toBeGreaterThanOrEqual(20); // 2 loops and more of a 4 s slate and the 12 s VOD
        // On a demuxed channel hls.js's main timeline is the video's: a TS item listed with its audio's
        // overhang past the video moved every later fragment 11 ms earlier per slate.
        const [first] = main;
        const shiftsMs = main.map((f) =>
          Math.round((f.start - first!.start - (f.pdtMs! - first!.pdtMs!) / 1000) * 1000),
        );
        console.log(`fragment start less playlist position, ms: ${shiftsMs.join(', ')}`);
        const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
        const drift = median(shiftsMs.slice(-10)) - median(shiftsMs.slice(0, 10));
        expect(Math.abs(drift), JSON.stringify(shiftsMs)).toBeLessThanOrEqual(5);
      },
      150_000,
    );
  });
});
