/**
 * Live sources as packagers make them (docs/live-mixing.md): each shape of packager-source.ts through
 * a switch in and out of a channel, on a fake clock, read from the outside (the tests' own parser and
 * the raw lines before each segment).
 */
import { describe, expect, it } from 'vitest';
import { PLAYER_HOLDBACK_TARGET_DURATIONS } from '../../engine-container/src/live/live-lead';
import { fetchLiveSource, type LiveSnapshot } from '../../engine-container/src/live/live-source';
import type { ScheduleEvent } from '../../engine-container/src/types';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { masterPlaylist, mediaPlaylist } from '../engine/helpers/playlists';
import { type MediaPlaylist, parseMediaPlaylist } from '../support/hls-playlist';
import { checkReloads } from '../support/live-rules';
import { packagerSource, type Shape, SOURCE_SCTE35_IN, SOURCE_SCTE35_OUT } from './packager-source';

const CMAF_VOD = 'https://origin.test/cmaf/master.m3u8';

/** A channel whose VOD2Live plays a TS VOD (or with `cmafVod`, an fMP4 one), and a source of `shape`. */
function channelWith(shape: Shape, o: { cmafVod?: boolean; windowSize?: number } = {}) {
  const world = fakeWorld();
  world.origin.add({
    [CMAF_VOD]: masterPlaylist([{ uri: 'v0/index.m3u8', bandwidth: 300_000, width: 320, height: 180 }]),
    'https://origin.test/cmaf/v0/index.m3u8': mediaPlaylist(Array(10).fill(2000), {
      ext: 'm4s',
      before: { 0: ['#EXT-X-MAP:URI="init.mp4"'] },
    }),
  });
  const am = new ScriptedAssetManager(() => vodResponse(o.cmafVod ? CMAF_VOD : world.a));
  const made = makeCore(am, { fetch: world.origin.fetch, defaultSlateUri: world.slate });
  const runtime = made.core.upsertChannel({ id: 'ch', name: 'ch' });
  const source = packagerSource(world.origin, made.clock, shape, { windowSize: o.windowSize });
  return { world, am, source, ...made, ...runtime };
}
type Channel = ReturnType<typeof channelWith>;

interface Reload {
  atMs: number;
  text: string;
  playlist: MediaPlaylist;
}

/**
 * Schedules one LIVE event 20 s from now for 30 s, and reloads v0 every second until 20 s after it;
 * `onReload` sees each reload at its instant.
 */
async function throughEvent(
  ch: Channel,
  onReload: (r: Reload) => void = () => {},
): Promise<{ reloads: Reload[]; startMs: number; endMs: number }> {
  await ch.playout.advance();
  const startMs = ch.clock.now + 20_000;
  const endMs = startMs + 30_000;
  const event: ScheduleEvent = {
    eventId: 'ev',
    assetId: 'ev',
    title: 'Live',
    type: 1,
    start_time: startMs,
    end_time: endMs,
    uri: ch.source.uri,
  };
  ch.playout.setSchedule([event]);
  const reloads: Reload[] = [];
  for (; ch.clock.now < endMs + 20_000; ch.clock.now += 1000) {
    if (ch.playout.nextWakeMs() <= ch.clock.now) await ch.playout.advance();
    const text = await ch.playlists.mediaPlaylist('v0');
    const reload = { atMs: ch.clock.now, text, playlist: parseMediaPlaylist(text) };
    onReload(reload);
    reloads.push(reload);
  }
  return { reloads, startMs, endMs };
}

/** Each segment's URI with the tag lines before it (after the previous segment's URI). */
function blocks(text: string): Array<{ uri: string; tags: string[] }> {
  const out: Array<{ uri: string; tags: string[] }> = [];
  let tags: string[] = [];
  for (const line of text.split('\n').slice(1)) {
    if (line === '') continue;
    if (line.startsWith('#')) tags.push(line);
    else {
      out.push({ uri: line, tags });
      tags = [];
    }
  }
  return out;
}

/** Every segment once (by media sequence number), in order, with the tags it had when it was first seen. */
function seen(reloads: Reload[]) {
  const byMsn = new Map<number, MediaPlaylist['segments'][number] & { tags: string[] }>();
  for (const r of reloads) {
    const b = blocks(r.text).filter((x) => !x.tags.includes('#EXT-X-ENDLIST'));
    r.playlist.segments.forEach((s, i) => {
      if (!byMsn.has(s.mediaSequence)) byMsn.set(s.mediaSequence, { ...s, tags: b[i]!.tags });
    });
  }
  return [...byMsn.values()].sort((a, b) => a.mediaSequence - b.mediaSequence);
}

const liveRun = (ch: Channel, segments: ReturnType<typeof seen>) => {
  const live = segments.filter((s) => ch.source.isLive(s.uri));
  const first = segments.indexOf(live[0]!);
  return { live, before: segments[first - 1]!, after: segments[first + live.length]! };
};

describe('live sources as packagers make them', () => {
  it('plays a CMAF source in a TS channel with the source init section on every live segment, and a discontinuity at each change', async () => {
    const ch = channelWith('cmaf');
    const { reloads } = await throughEvent(ch);
    expect(checkReloads(reloads.map((r) => r.playlist))).toEqual([]);
    const { live, before, after } = liveRun(ch, seen(reloads));
    expect(live.length).toBeGreaterThanOrEqual(14);
    expect(live.every((s) => s.map?.uri === 'https://live.test/cmaf/init_v0.mp4')).toBe(true);
    expect(live[0]!.tags).toContain('#EXT-X-MAP:URI="https://live.test/cmaf/init_v0.mp4"');
    expect(live.map((s) => s.discontinuity)).toEqual([true, ...Array(live.length - 1).fill(false)]);
    expect(before.uri).toMatch(/\.ts$/);
    expect(after.discontinuity).toBe(true);
    // The TS after it never inherits the fMP4 init section: it gets a map of its own PAT/PMT.
    expect(after.map?.uri).toBe(after.uri);
  });

  it('plays a TS source in a CMAF channel with a map of its own and the VOD init section again after it', async () => {
    const ch = channelWith('ts', { cmafVod: true });
    const { reloads } = await throughEvent(ch);
    expect(checkReloads(reloads.map((r) => r.playlist))).toEqual([]);
    const { live, before, after } = liveRun(ch, seen(reloads));
    expect(before.map?.uri).toBe('https://origin.test/cmaf/v0/init.mp4');
    expect(live.every((s) => s.map?.uri !== 'https://origin.test/cmaf/v0/init.mp4')).toBe(true);
    expect(live[0]!.discontinuity && after.discontinuity).toBe(true);
    expect(after.map?.uri).toBe('https://origin.test/cmaf/v0/init.mp4');
    expect(after.tags).toContain('#EXT-X-MAP:URI="https://origin.test/cmaf/v0/init.mp4"');
  });

  it("carries the source's discontinuities: one in the channel wherever the encoder restarted", async () => {
    const ch = channelWith('discontinuity');
    const { reloads } = await throughEvent(ch);
    expect(checkReloads(reloads.map((r) => r.playlist))).toEqual([]);
    const { live } = liveRun(ch, seen(reloads));
    const n = (uri: string) => Number(uri.match(/_(\d+)\.ts$/)![1]);
    const restarts = live.slice(1).filter((s) => n(s.uri) % 10 === 0);
    expect(restarts.length).toBeGreaterThanOrEqual(1);
    expect(live.slice(1).filter((s) => s.discontinuity)).toEqual(restarts);
  });

  it("carries the source's SCTE-35 cues: CUE-OUT, CUE-OUT-CONT and CUE-IN, and date ranges on the channel's clock with the source's splice sections", async () => {
    const ch = channelWith('cues');
    const { reloads } = await throughEvent(ch);
    expect(checkReloads(reloads.map((r) => r.playlist))).toEqual([]);
    const { live } = liveRun(ch, seen(reloads));
    const out = live.findIndex((s) => s.tags.some((t) => t.startsWith('#EXT-X-CUE-OUT:')));
    expect(out).toBeGreaterThanOrEqual(0);
    const outSeg = live[out]!;
    const start = new Date(outSeg.programDateTimeMs!).toISOString();
    expect(outSeg.tags).toContain('#EXT-X-CUE-OUT:DURATION=10.000');
    expect(outSeg.tags).toContain(
      `#EXT-X-DATERANGE:ID="splice-${outSeg.uri.match(/_(\d+)\.ts$/)![1]}",START-DATE="${start}",PLANNED-DURATION=10.000,SCTE35-OUT=${SOURCE_SCTE35_OUT}`,
    );
    const cont = live
      .slice(out + 1, out + 5)
      .map((s) => s.tags.find((t) => t.startsWith('#EXT-X-CUE-OUT-CONT')));
    expect(cont).toEqual([2, 4, 6, 8].map((e) => `#EXT-X-CUE-OUT-CONT:ElapsedTime=${e}.000,Duration=10.000`));
    const inSeg = live[out + 5]!;
    expect(inSeg.tags).toContain('#EXT-X-CUE-IN');
    expect(inSeg.tags).toContain(
      `#EXT-X-DATERANGE:ID="splice-${outSeg.uri.match(/_(\d+)\.ts$/)![1]}",START-DATE="${start}",DURATION=10.000,SCTE35-IN=${SOURCE_SCTE35_IN}`,
    );
  });

  it('never lists a segment a player at its default live position would fetch after the source deleted it (6-segment window, deleted at once)', async () => {
    const ch = channelWith('cmaf', { windowSize: 6 });
    let fetched = 0;
    const missing: string[] = [];
    await throughEvent(ch, (r) => {
      // A player joining now starts HOLD-BACK from the end (RFC 8216 §6.3.3, hls.js's default), and
      // fetches that segment and every one after it as soon as it can.
      const segs = r.playlist.segments;
      const endS = segs.reduce((sum, s) => sum + s.duration, 0);
      let at = 0;
      const startAt = endS - PLAYER_HOLDBACK_TARGET_DURATIONS * r.playlist.targetDuration;
      for (const s of segs) {
        if (at + s.duration > startAt && ch.source.isLive(s.uri)) {
          fetched++;
          if (!ch.source.exists(s.uri)) missing.push(`${s.uri} at ${r.atMs}`);
        }
        at += s.duration;
      }
    });
    console.log(
      `6-segment source: ${fetched} live segment fetches at the default live position, ${missing.length} 404s`,
    );
    expect(fetched).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('costs a player at its default live position no stall when a 6-segment source dies: the log falls behind the clock by less than its hold-back', async () => {
    const ch = channelWith('cmaf', { windowSize: 6 });
    await ch.playout.advance();
    const start = ch.clock.now + 20_000;
    ch.playout.setSchedule([
      {
        eventId: 'ev',
        assetId: 'ev',
        title: 'Live',
        type: 1,
        start_time: start,
        end_time: start + 120_000,
        uri: ch.source.uri,
      },
    ]);
    let leadMs = 0;
    for (; ch.clock.now < start + 20_000; ch.clock.now += 500) {
      if (ch.playout.nextWakeMs() <= ch.clock.now) await ch.playout.advance();
      if (ch.clock.now > start) {
        const last = ch.playout.tail.last!;
        leadMs = Math.max(leadMs, last.startMs + last.durationMs - ch.clock.now);
      }
    }
    ch.source.stop();
    let behindMs = 0;
    for (const stoppedAt = ch.clock.now; ch.clock.now < stoppedAt + 30_000; ch.clock.now += 500) {
      if (ch.playout.nextWakeMs() <= ch.clock.now) await ch.playout.advance();
      const last = ch.playout.tail.last!;
      behindMs = Math.max(behindMs, ch.clock.now - (last.startMs + last.durationMs));
    }
    const holdBackMs = PLAYER_HOLDBACK_TARGET_DURATIONS * 2000;
    console.log(
      `6-segment source: the log leads the clock by at most ${leadMs} ms while live; after the source died it fell ${behindMs} ms behind the clock (a player at its default position holds ${holdBackMs} ms)`,
    );
    expect(ch.playout.tail.last!.kind).toBe('vod');
    expect(behindMs).toBeLessThan(holdBackMs - 2000);
  });

  it('keeps byte ranges with explicit offsets and the init section byte range', async () => {
    const ch = channelWith('byterange');
    const { reloads } = await throughEvent(ch);
    expect(checkReloads(reloads.map((r) => r.playlist))).toEqual([]);
    const { live } = liveRun(ch, seen(reloads));
    expect(live.every((s) => s.uri === 'https://live.test/byterange/v0.mp4')).toBe(true);
    const offsets = live.map((s) => Number(s.byteRange!.split('@')[1]));
    expect(offsets.slice(1).map((o, i) => o - offsets[i]!)).toEqual(Array(live.length - 1).fill(150_000));
    expect(live.every((s) => s.byteRange!.startsWith('150000@'))).toBe(true);
    expect(live[0]!.map).toEqual({ uri: 'https://live.test/byterange/v0.mp4', byteRange: '720@0' });
  });

  it('passes AES-128 keys through: the key in force on the first live segment, each rotation, and METHOD=NONE after the event', async () => {
    const ch = channelWith('aes128');
    const { reloads } = await throughEvent(ch);
    expect(checkReloads(reloads.map((r) => r.playlist))).toEqual([]);
    const { live, after } = liveRun(ch, seen(reloads));
    const keyOf = (s: (typeof live)[number]) => s.tags.find((t) => t.startsWith('#EXT-X-KEY:'));
    const n = (uri: string) => Number(uri.match(/_(\d+)\.ts$/)![1]);
    const key = (k: number) =>
      `#EXT-X-KEY:METHOD=AES-128,URI="https://keys.test/key_${Math.floor(k / 5)}.bin",IV=0x${k.toString(16).padStart(32, '0')}`;
    expect(keyOf(live[0]!)).toMatch(
      /^#EXT-X-KEY:METHOD=AES-128,URI="https:\/\/keys\.test\/key_\d+\.bin",IV=0x/,
    );
    for (const s of live.slice(1).filter((x) => n(x.uri) % 5 === 0)) expect(keyOf(s)).toBe(key(n(s.uri)));
    expect(after.tags).toContain('#EXT-X-KEY:METHOD=NONE');
  });

  it('passes SAMPLE-AES keys with their KEYFORMAT through, with the fMP4 map, and METHOD=NONE after the event', async () => {
    const ch = channelWith('sample-aes');
    const { reloads } = await throughEvent(ch);
    const { live, after } = liveRun(ch, seen(reloads));
    expect(live[0]!.tags).toContain(
      '#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://live-key-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"',
    );
    expect(live.every((s) => s.map?.uri === 'https://live.test/sample-aes/init_v0.mp4')).toBe(true);
    expect(after.tags).toContain('#EXT-X-KEY:METHOD=NONE');
  });

  it('plays an LL-HLS source as whole segments: no parts, no preload hints, no segment in progress', async () => {
    const ch = channelWith('llhls');
    const { reloads } = await throughEvent(ch);
    expect(checkReloads(reloads.map((r) => r.playlist))).toEqual([]);
    const { live } = liveRun(ch, seen(reloads));
    expect(live.length).toBeGreaterThanOrEqual(14);
    expect(live.every((s) => /\/v0_\d+\.m4s$/.test(s.uri) && s.duration === 2)).toBe(true);
    expect(reloads.some((r) => /EXT-X-PART|PRELOAD-HINT|SERVER-CONTROL/.test(r.text))).toBe(false);
    const n = live.map((s) => Number(s.uri.match(/_(\d+)\.m4s$/)![1]));
    expect(n).toEqual(n.map((_, i) => n[0]! + i));
  });
});

describe('a live source read while its packager replaces a playlist', () => {
  const uri = 'https://origin.test/live/v0.m3u8';
  const head =
    '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:2.0,\nseg7.ts\n#EXTINF:2.0,\n';
  const read = async (text: string) => {
    const world = fakeWorld();
    world.origin.routes.set(uri, text);
    const snapshot = (await fetchLiveSource(uri, {
      fetch: world.origin.fetch,
      timeoutMs: 1000,
      maxPlaylistBytes: 100_000,
    })) as LiveSnapshot;
    return snapshot.variants[0]!.segments.map((s) => s.uri.split('/').at(-1));
  };

  it('takes no segment from a last line without its line feed (the playlist was cut mid-URI)', async () => {
    expect(await read(`${head}seg8.t`)).toEqual(['seg7.ts']);
  });

  it('takes the segment once its line is whole', async () => {
    expect(await read(`${head}seg8.ts\n`)).toEqual(['seg7.ts', 'seg8.ts']);
  });
});
