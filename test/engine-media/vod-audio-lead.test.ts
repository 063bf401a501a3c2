import { describe, expect, it } from 'vitest';
import { loadVod, VodLoadError } from '../../engine-container/src/vod/load-vod';
import { FakeOrigin, masterPlaylist, mediaPlaylist } from '../engine/helpers/playlists';
import { adtsPesPacket, join, pesPacket, primedSegment } from './support/ts-packets';

const opts = (origin: FakeOrigin, timeoutMs = 1000) => ({
  fetch: origin.fetch,
  timeoutMs,
  maxPlaylistBytes: 100_000,
  useDemuxedAudio: true,
  useVTTSubtitles: true,
});

const segment = (bytes: Uint8Array) => async () => new Response(bytes, { status: 200 });

/** A last segment (of 3 x 2 s after a video start at 127 920) whose audio ends `overhangTicks` after its video. */
const lastSegment = (overhangTicks: number) =>
  join(pesPacket(256, 0xe0, 487_920), adtsPesPacket(257, 667_920 + overhangTicks - 2 * 1920, 2));

/** A two-variant TS VOD with an audio rendition; the low variant's first segment at `low/seg0.ts`. */
function tsVod(): FakeOrigin {
  const master = masterPlaylist(
    [
      { uri: 'high/index.m3u8', bandwidth: 800_000, audio: 'a' },
      { uri: 'low/index.m3u8', bandwidth: 300_000, audio: 'a' },
    ],
    ['#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",LANGUAGE="en",NAME="English",URI="en/index.m3u8"'],
  );
  return new FakeOrigin().add({
    'https://o.test/v/master.m3u8': master,
    'https://o.test/v/high/index.m3u8': mediaPlaylist([2000, 2000, 2000]),
    'https://o.test/v/low/index.m3u8': mediaPlaylist([2000, 2000, 2000]),
    'https://o.test/v/en/index.m3u8': mediaPlaylist([2000, 2000, 2000]),
  });
}

describe('a TS VOD whose audio starts before its video (AAC priming)', () => {
  it('is listed with its first segment longer by the lead and its last by the audio’s overhang, in every rendition, as hls.js plays it', async () => {
    const origin = tsVod();
    origin.routes.set('https://o.test/v/low/seg0.ts', segment(primedSegment(1920)));
    origin.routes.set('https://o.test/v/low/seg2.ts', segment(lastSegment(1440)));
    const vod = await loadVod('https://o.test/v/master.m3u8', opts(origin));
    expect(vod.audioPadding).toEqual({ leadMs: 21, tailMs: 16 });
    for (const track of [...vod.variants, ...vod.audio].map((r) => r.track)) {
      expect(track.segments.map((s) => s.durationMs)).toEqual([2021, 2000, 2016]);
      expect(track.totalMs).toBe(6037);
    }
  });

  it('reads only the first and last segments of its lowest variant, the first only to its first MiB', async () => {
    const origin = tsVod();
    const ranges: (string | null)[] = [];
    origin.routes.set('https://o.test/v/low/seg0.ts', async () => new Response(primedSegment(1920)));
    const fetch: typeof origin.fetch = (url, init) => {
      if (url.endsWith('seg0.ts')) ranges.push(new Headers(init?.headers).get('range'));
      return origin.fetch(url, init);
    };
    await loadVod('https://o.test/v/master.m3u8', { ...opts(origin), fetch });
    expect(origin.requests.filter((u) => u.endsWith('.ts')).sort()).toEqual([
      'https://o.test/v/low/seg0.ts',
      'https://o.test/v/low/seg2.ts',
    ]);
    expect(ranges).toEqual(['bytes=0-1048575']);
  });

  it('is listed as its playlist says when its audio and video start together', async () => {
    const origin = tsVod();
    origin.routes.set('https://o.test/v/low/seg0.ts', segment(primedSegment(0)));
    origin.routes.set('https://o.test/v/low/seg2.ts', segment(lastSegment(0)));
    const vod = await loadVod('https://o.test/v/master.m3u8', opts(origin));
    expect(vod.audioPadding).toBeUndefined();
    expect(vod.variants[0]!.track.totalMs).toBe(6000);
  });

  it('is listed as its playlist says when the origin refuses its segments (a 4xx, the same for every engine)', async () => {
    const vod = await loadVod('https://o.test/v/master.m3u8', opts(tsVod()));
    expect(vod.variants[0]!.track.totalMs).toBe(6000);
  });

  it('fails to load, to be retried, when its last segment does not answer (engines must not differ)', async () => {
    const origin = tsVod();
    origin.routes.set('https://o.test/v/low/seg0.ts', segment(primedSegment(1920)));
    origin.routes.set('https://o.test/v/low/seg2.ts', 503);
    const err = await loadVod('https://o.test/v/master.m3u8', opts(origin)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VodLoadError);
    expect((err as VodLoadError).code).toBe('vod_unavailable');
  });
});

describe('an fMP4 VOD', () => {
  it('is listed as its playlist says, without reading a segment (its edit list carries the priming)', async () => {
    const origin = new FakeOrigin().add({
      'https://o.test/f/index.m3u8': mediaPlaylist([2000, 2000], {
        ext: 'm4s',
        before: { 0: ['#EXT-X-MAP:URI="init.mp4"'] },
      }),
    });
    const vod = await loadVod('https://o.test/f/index.m3u8', opts(origin));
    expect(vod.variants[0]!.track.totalMs).toBe(4000);
    expect(origin.requests).toEqual(['https://o.test/f/index.m3u8']);
  });
});
