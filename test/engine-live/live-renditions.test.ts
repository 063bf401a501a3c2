/**
 * Live mixing with audio and subtitle renditions (docs/live-mixing.md, "Audio and subtitles"): a
 * channel with demuxed audio and WebVTT subtitles switches to a live source and back on every
 * rendition at the same instants, each rendition keeping the RFC 8216 live rules.
 */
import { describe, expect, it } from 'vitest';
import { renditionKeys } from '../../engine-container/src/ladder/output-ladder';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import type { ScheduleEvent } from '../../engine-container/src/types';
import { makeCore, ORIGIN, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { type FakeLiveOptions, fakeLiveSource } from '../engine/helpers/fake-live-source';
import { FakeOrigin, masterPlaylist, mediaPlaylist } from '../engine/helpers/playlists';
import { type MediaPlaylist, type MediaSegment, parseMediaPlaylist } from '../support/hls-playlist';
import { checkReloads } from '../support/live-rules';

const EVENT_MS = 30_000;

/**
 * A VOD with video-only variants, English and Swedish audio renditions and English WebVTT. The audio is
 * AAC-like: English segments 10 ms longer than the video's, Swedish 10 ms shorter (the last makes up),
 * so their boundaries meet the video's only at the ends: a cut finds an English segment mostly before
 * it and a Swedish one mostly after it.
 */
function demuxedVod(origin: FakeOrigin): string {
  const base = `${ORIGIN}/demux`;
  const seg = Array(10).fill(2000);
  const audio = (d: number) => seg.map((ms, i) => (i < seg.length - 1 ? ms + d : ms - d * (seg.length - 1)));
  const variant = (uri: string, bandwidth: number, width: number, height: number) => ({
    uri,
    bandwidth,
    width,
    height,
    codecs: 'avc1.64001f,mp4a.40.2',
    audio: 'aud',
    subtitles: 'subs',
  });
  origin.add({
    [`${base}/v0/index.m3u8`]: mediaPlaylist(seg, { prefix: 's' }),
    [`${base}/v1/index.m3u8`]: mediaPlaylist(seg, { prefix: 's' }),
    [`${base}/en/index.m3u8`]: mediaPlaylist(audio(10), { prefix: 'a', ext: 'aac' }),
    [`${base}/sv/index.m3u8`]: mediaPlaylist(audio(-10), { prefix: 'a', ext: 'aac' }),
    [`${base}/subs/en.m3u8`]: mediaPlaylist(seg, { prefix: 'c', ext: 'vtt' }),
    [`${base}/master.m3u8`]: masterPlaylist(
      [variant('v0/index.m3u8', 300_000, 320, 180), variant('v1/index.m3u8', 800_000, 640, 360)],
      [
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="en",NAME="English",DEFAULT=YES,URI="en/index.m3u8"',
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="sv",NAME="Svenska",URI="sv/index.m3u8"',
        '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="en",NAME="English",URI="subs/en.m3u8"',
      ],
    ),
  });
  return `${base}/master.m3u8`;
}

/** A channel in English, Swedish and Finnish audio, English and French subtitles, on the demuxed VOD. */
/** An asset manager that resumes what a LIVE event cut into (as the host's Loop channels do). */
class ResumingAssetManager extends ScriptedAssetManager {
  resumesAfterLive(): boolean {
    return true;
  }
}

function channel(
  live: FakeLiveOptions,
  store = new InMemoryPlayoutLogStore(),
  sharedClock?: { now: number },
  resumes = false,
) {
  const origin = new FakeOrigin();
  const vod = demuxedVod(origin);
  const AssetManager = resumes ? ResumingAssetManager : ScriptedAssetManager;
  const made = makeCore(new AssetManager(() => vodResponse(vod)), {
    fetch: origin.fetch,
    logStore: store,
    useDemuxedAudio: true,
    useVTTSubtitles: true,
    ...(sharedClock ? { sharedClock } : {}),
  });
  const runtime = made.core.upsertChannel({
    id: 'ch',
    name: 'ch',
    audioTracks: [
      { language: 'en', name: 'English' },
      { language: 'sv', name: 'Svenska' },
      { language: 'fi', name: 'Suomi' },
    ],
    subtitleTracks: [
      { language: 'en', name: 'English' },
      { language: 'fr', name: 'Français' },
    ],
  });
  const source = fakeLiveSource(origin, made.clock, { base: 'https://live.test/cam', ...live });
  return { source, ...made, ...runtime };
}
type Channel = ReturnType<typeof channel>;

const liveEvent = (uri: string, startMs: number): ScheduleEvent => ({
  eventId: 'match',
  assetId: 'match',
  title: 'Match',
  type: 1,
  start_time: startMs,
  end_time: startMs + EVENT_MS,
  uri,
});

const keysOf = (ch: Channel) => renditionKeys(ch.playout.tail.last!.ladder);

/** Runs the channel second by second through a LIVE event, reloading every rendition each second. */
async function playEvent(
  ch: Channel,
  aheadMs = 30_500,
): Promise<{ start: number; reloads: Map<string, MediaPlaylist[]> }> {
  await ch.playout.advance();
  const start = ch.clock.now + aheadMs;
  ch.playout.setSchedule([liveEvent(ch.source.uri, start)]);
  const reloads = new Map(keysOf(ch).map((k) => [k, [] as MediaPlaylist[]]));
  for (; ch.clock.now < start + EVENT_MS + 40_000; ch.clock.now += 1000) {
    if (ch.playout.nextWakeMs() <= ch.clock.now) await ch.playout.advance();
    for (const [key, list] of reloads) list.push(parseMediaPlaylist(await ch.playlists.mediaPlaylist(key)));
  }
  return { start, reloads };
}

function segmentsSeen(reloads: MediaPlaylist[]): MediaSegment[] {
  const byMsn = new Map<number, MediaSegment>();
  for (const r of reloads) for (const s of r.segments) byMsn.set(s.mediaSequence, s);
  return [...byMsn.values()].sort((a, b) => a.mediaSequence - b.mediaSequence);
}

/** Where each rendition's discontinuities are on the channel's clock, with their sequence numbers. */
const seams = (segments: MediaSegment[]) =>
  segments.filter((s) => s.discontinuity).map((s) => [s.programDateTimeMs, s.discontinuitySequence]);

/** The segments a rendition plays between the switch in and the switch out (v0's live segments). */
function duringLive(ch: Channel, seen: Map<string, MediaSegment[]>): Map<string, MediaSegment[]> {
  const live = seen.get('v0')!.filter((s) => ch.source.isLive(s.uri));
  const from = live[0]!.programDateTimeMs!;
  const last = live.at(-1)!;
  const to = last.programDateTimeMs! + last.duration * 1000;
  return new Map(
    [...seen].map(([key, list]) => [
      key,
      list.filter((s) => s.programDateTimeMs! >= from - 100 && s.programDateTimeMs! < to - 100),
    ]),
  );
}

/** The RFC 8216 rules on every rendition, and the seams at the same instants on every rendition. */
function expectAlignedRenditions(ch: Channel, reloads: Map<string, MediaPlaylist[]>, start: number) {
  const seen = new Map([...reloads].map(([key, list]) => [key, segmentsSeen(list)]));
  for (const [key, list] of reloads) expect(checkReloads(list), key).toEqual([]);
  const video = seams(seen.get('v0')!);
  const live = seen.get('v0')!.filter((s) => ch.source.isLive(s.uri));
  expect(video.map(([pdt]) => pdt)).toContain(live[0]!.programDateTimeMs);
  expect(live[0]!.programDateTimeMs! - start).toBeGreaterThanOrEqual(0);
  for (const [key, list] of seen) expect(seams(list), key).toEqual(video);
  const during = duringLive(ch, seen);
  for (const [key, list] of during) {
    // One discontinuity in (on the first live segment), none inside; the switch out is the next one.
    expect(
      list.map((s) => s.discontinuity),
      key,
    ).toEqual([true, ...Array(list.length - 1).fill(false)]);
    expect(list.length, key).toBe(live.length);
  }
  return during;
}

/** The source's segment number in a URI (`<name>_<n>.<ext>`). */
const sourceNumber = (uri: string) => Number(uri.match(/_(\d+)\.\w+$/)![1]);

describe('live mixing with audio and subtitle renditions', () => {
  it("plays the source's audio rendition of each channel language, else its default, and its WebVTT subtitles", async () => {
    const ch = channel({
      audio: [
        { language: 'en', name: 'English' },
        { language: 'sv', name: 'Svenska', default: true },
      ],
      subtitles: ['en'],
    });
    const { start, reloads } = await playEvent(ch);
    expect(keysOf(ch)).toEqual(['v0', 'v1', 'a:aud:en', 'a:aud:sv', 'a:aud:fi', 's:en', 's:fr']);
    const during = expectAlignedRenditions(ch, reloads, start);
    const expected: Record<string, RegExp> = {
      v0: /\/cam\/v0_\d+\.ts$/,
      v1: /\/cam\/v1_\d+\.ts$/,
      'a:aud:en': /\/cam\/a_en_\d+\.aac$/,
      'a:aud:sv': /\/cam\/a_sv_\d+\.aac$/,
      // No Finnish in the source: its default rendition.
      'a:aud:fi': /\/cam\/a_sv_\d+\.aac$/,
      's:en': /\/cam\/s_en_\d+\.vtt$/,
      // No French in the source: empty WebVTT on the video's boundaries, named by their channel time.
      's:fr': /^\/vtt\/dummyUrl\?startMs=\d+&durationMs=2000$/,
    };
    const numbers = during.get('v0')!.map((s) => sourceNumber(s.uri));
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    for (const [key, list] of during) {
      expect(
        list.every((s) => expected[key]!.test(s.uri)),
        `${key}: ${list[0]?.uri}`,
      ).toBe(true);
      // Every rendition plays the same source segments (the same media sequence numbers).
      if (key !== 's:fr')
        expect(
          list.map((s) => sourceNumber(s.uri)),
          key,
        ).toEqual(numbers);
    }
    for (const s of during.get('s:fr')!) expect(s.uri).toContain(`startMs=${s.programDateTimeMs}&`);
    // The audio segments keep their own durations (±20 ms) yet end with the video's at the switch out.
    const audio = during.get('a:aud:en')!;
    expect(new Set(audio.map((s) => s.duration)).size).toBe(2);
    const end = (list: MediaSegment[]) => list.at(-1)!.programDateTimeMs! + list.at(-1)!.duration * 1000;
    expect(Math.abs(end(audio) - end(during.get('v0')!))).toBeLessThanOrEqual(20);
  });

  it("feeds the channel's audio renditions from a muxed-only source's reference variant, its subtitles from empty WebVTT", async () => {
    const ch = channel({});
    const { start, reloads } = await playEvent(ch);
    const during = expectAlignedRenditions(ch, reloads, start);
    for (const key of ['a:aud:en', 'a:aud:sv', 'a:aud:fi'])
      expect(during.get(key)!.map((s) => s.uri)).toEqual(during.get('v0')!.map((s) => s.uri));
    for (const key of ['s:en', 's:fr'])
      for (const s of during.get(key)!)
        expect(s.uri).toBe(`/vtt/dummyUrl?startMs=${s.programDateTimeMs}&durationMs=2000`);
  });

  it('ends the audio of a VOD item the switch in cuts into within half a segment of the cut: no hole, no overlap of a segment', async () => {
    const ch = channel({ audio: [{ language: 'en', name: 'English' }] });
    // Announced late: the VOD item playing then is already in the log, and the live item cuts it short.
    const { start, reloads } = await playEvent(ch, 5000);
    const live = ch.playout.tail.items.find((i) => i.kind === 'live')!;
    const cut = ch.playout.tail.items.find((i) => i.seq === live.seq - 1)!;
    expect(cut.startMs + cut.durationMs).toBeGreaterThan(live.startMs);
    expectAlignedRenditions(ch, reloads, start);
    // The audio segment mostly before the cut stays, the one mostly after it goes: each rendition's
    // VOD audio ends within half a segment of the live audio's start.
    for (const key of ['a:aud:en', 'a:aud:sv']) {
      const audio = segmentsSeen(reloads.get(key)!);
      const first = audio.findIndex((s) => ch.source.isLive(s.uri));
      const before = audio[first - 1]!;
      const gap = audio[first]!.programDateTimeMs! - (before.programDateTimeMs! + before.duration * 1000);
      expect(Math.abs(gap), key).toBeLessThan(1000);
    }
  });

  it('starts the audio of the VOD it resumes after the event within half a segment of the video: no hole of a segment', async () => {
    const ch = channel({ audio: [{ language: 'en', name: 'English' }] }, undefined, undefined, true);
    const { start, reloads } = await playEvent(ch);
    const items = ch.playout.tail.items;
    const live = items.findLast((i) => i.kind === 'live')!;
    // Resumed where the event cut it: mid-VOD, where a Swedish segment starts 10 ms before the video's.
    expect(items.find((i) => i.seq > live.seq)).toMatchObject({ kind: 'vod', offsetMs: expect.any(Number) });
    expect(items.find((i) => i.seq > live.seq)!.offsetMs).toBeGreaterThan(0);
    expectAlignedRenditions(ch, reloads, start);
    for (const key of ['a:aud:en', 'a:aud:sv']) {
      const audio = segmentsSeen(reloads.get(key)!);
      const after = audio.findLastIndex((s) => ch.source.isLive(s.uri)) + 1;
      for (let k = after; k < audio.length; k++) {
        const before = audio[k - 1]!;
        const gap = audio[k]!.programDateTimeMs! - (before.programDateTimeMs! + before.duration * 1000);
        expect(Math.abs(gap), `${key} before ${audio[k]!.uri}`).toBeLessThan(1000);
      }
    }
  });

  it('serves byte-identical audio and subtitle playlists from two engines sharing the log', async () => {
    const store = new InMemoryPlayoutLogStore();
    const live = { audio: [{ language: 'en', name: 'English' }], subtitles: ['en'] };
    const a = channel(live, store);
    const b = channel(live, store, a.clock);
    await a.playout.advance();
    const events = [liveEvent(a.source.uri, a.clock.now + 30_000)];
    a.playout.setSchedule(events);
    b.playout.setSchedule(events);
    let liveSeen = 0;
    for (let n = 0, end = a.clock.now + 80_000; a.clock.now < end; a.clock.now += 1000, n++) {
      for (const e of n % 2 ? [a, b] : [b, a])
        if (e.playout.nextWakeMs() <= a.clock.now) await e.playout.advance();
      for (const key of ['a:aud:en', 'a:aud:fi', 's:en', 's:fr']) {
        const one = await a.playlists.mediaPlaylist(key);
        expect(await b.playlists.mediaPlaylist(key), key).toBe(one);
        if (one.includes('/cam/a_en_')) liveSeen++;
      }
    }
    expect(liveSeen).toBeGreaterThan(10);
  });
});
