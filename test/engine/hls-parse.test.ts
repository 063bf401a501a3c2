import { describe, expect, it } from 'vitest';
import { PlaylistError, parseMasterPlaylist } from '../../engine-container/src/hls/parse-master';
import { parseMediaPlaylist } from '../../engine-container/src/hls/parse-media';
import { loadVod, VodLoadError } from '../../engine-container/src/vod/load-vod';
import { FakeOrigin, masterPlaylist, mediaPlaylist } from './helpers/playlists';

const BASE = 'https://origin.test/vods/a/master.m3u8';

describe('master playlist parsing', () => {
  it('reads variants with bandwidth, resolution and codecs, resolving relative URIs against the master', () => {
    const text = masterPlaylist([
      { uri: 'low/index.m3u8', bandwidth: 300000, width: 320, height: 180 },
      { uri: '../b/high.m3u8', bandwidth: 800000, width: 640, height: 360, codecs: 'avc1.4d401f' },
    ]);
    const master = parseMasterPlaylist(text, BASE);
    expect(master.variants.map((v) => v.uri)).toEqual([
      'https://origin.test/vods/a/low/index.m3u8',
      'https://origin.test/vods/b/high.m3u8',
    ]);
    expect(master.variants[1]).toMatchObject({
      bandwidth: 800000,
      resolution: { width: 640, height: 360 },
      codecs: 'avc1.4d401f',
    });
  });

  it('reads audio and subtitle renditions of EXT-X-MEDIA groups', () => {
    const text = masterPlaylist(
      [{ uri: 'v.m3u8', bandwidth: 500000, audio: 'aud', subtitles: 'subs' }],
      [
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="sv",NAME="Svenska",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="sv.m3u8"',
        '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="en",NAME="English",URI="/subs/en.m3u8"',
      ],
    );
    const master = parseMasterPlaylist(text, BASE);
    expect(master.media).toEqual([
      expect.objectContaining({
        type: 'AUDIO',
        groupId: 'aud',
        language: 'sv',
        default: true,
        channels: '2',
        uri: 'https://origin.test/vods/a/sv.m3u8',
      }),
      expect.objectContaining({
        type: 'SUBTITLES',
        language: 'en',
        default: false,
        uri: 'https://origin.test/subs/en.m3u8',
      }),
    ]);
  });

  it('refuses a master without variants and a file that is not a playlist', () => {
    expect(() => parseMasterPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n', BASE)).toThrow(
      PlaylistError,
    );
    expect(() => parseMasterPlaylist('<html>', BASE)).toThrow(PlaylistError);
  });
});

describe('media playlist parsing', () => {
  it('turns EXTINF into integer milliseconds', () => {
    const text = mediaPlaylist([2002, 3003, 1500]);
    expect(parseMediaPlaylist(text, BASE).segments.map((s) => s.durationMs)).toEqual([2002, 3003, 1500]);
  });

  it('resolves segment URIs against the playlist URL', () => {
    const text = mediaPlaylist([2000, 2000], { uris: { 0: 'a.ts', 1: '/root/b.ts' } });
    expect(parseMediaPlaylist(text, BASE).segments.map((s) => s.uri)).toEqual([
      'https://origin.test/vods/a/a.ts',
      'https://origin.test/root/b.ts',
    ]);
  });

  it('reads byte ranges with explicit and implicit offsets', () => {
    const text = mediaPlaylist([2000, 2000, 2000], {
      uris: { 0: 'all.ts', 1: 'all.ts', 2: 'all.ts' },
      before: {
        0: ['#EXT-X-BYTERANGE:1000@0'],
        1: ['#EXT-X-BYTERANGE:500'],
        2: ['#EXT-X-BYTERANGE:700@9000'],
      },
    });
    expect(parseMediaPlaylist(text, BASE).segments.map((s) => s.byterange)).toEqual([
      { length: 1000, offset: 0 },
      { length: 500, offset: 1000 },
      { length: 700, offset: 9000 },
    ]);
  });

  it('carries EXT-X-KEY with an absolute URI until METHOD=NONE', () => {
    const text = mediaPlaylist([2000, 2000, 2000], {
      before: { 0: ['#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x01'], 2: ['#EXT-X-KEY:METHOD=NONE'] },
    });
    const keys = parseMediaPlaylist(text, BASE).segments.map((s) => s.keys);
    expect(keys[0]).toBe('#EXT-X-KEY:METHOD=AES-128,URI="https://origin.test/vods/a/key.bin",IV=0x01');
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBeUndefined();
  });

  it('carries EXT-X-MAP with an absolute URI and the source discontinuities', () => {
    const text = mediaPlaylist([2000, 2000], {
      ext: 'm4s',
      before: { 0: ['#EXT-X-MAP:URI="init.mp4"'], 1: ['#EXT-X-DISCONTINUITY'] },
    });
    const segments = parseMediaPlaylist(text, BASE).segments;
    expect(segments.map((s) => s.map)).toEqual([
      '#EXT-X-MAP:URI="https://origin.test/vods/a/init.mp4"',
      '#EXT-X-MAP:URI="https://origin.test/vods/a/init.mp4"',
    ]);
    expect(segments.map((s) => s.discontinuity)).toEqual([false, true]);
  });

  it('refuses a segment without EXTINF, a bad EXTINF and an empty playlist', () => {
    expect(() => parseMediaPlaylist('#EXTM3U\nseg.ts\n', BASE)).toThrow(PlaylistError);
    expect(() => parseMediaPlaylist('#EXTM3U\n#EXTINF:abc,\nseg.ts\n', BASE)).toThrow(PlaylistError);
    expect(() => parseMediaPlaylist('#EXTM3U\n#EXT-X-ENDLIST\n', BASE)).toThrow(PlaylistError);
  });
});

describe('loading a VOD', () => {
  const opts = (origin: FakeOrigin, timeoutMs = 1000) => ({
    fetch: origin.fetch,
    timeoutMs,
    maxPlaylistBytes: 100_000,
    useDemuxedAudio: true,
    useVTTSubtitles: true,
  });

  it('accepts a bare media playlist as a one-variant VOD', async () => {
    const origin = new FakeOrigin().add({ 'https://o.test/x/index.m3u8': mediaPlaylist([2000, 2000]) });
    const vod = await loadVod('https://o.test/x/index.m3u8', opts(origin));
    expect(vod.variants).toHaveLength(1);
    expect(vod.variants[0]!.track.totalMs).toBe(4000);
  });

  it('loads every variant and demuxed rendition of a master', async () => {
    const master = masterPlaylist(
      [{ uri: 'v.m3u8', bandwidth: 1, audio: 'a' }],
      ['#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",LANGUAGE="en",NAME="English",URI="en.m3u8"'],
    );
    const origin = new FakeOrigin().add({
      'https://o.test/m/master.m3u8': master,
      'https://o.test/m/v.m3u8': mediaPlaylist([4000]),
      'https://o.test/m/en.m3u8': mediaPlaylist([2000, 2000]),
    });
    const vod = await loadVod('https://o.test/m/master.m3u8', opts(origin));
    expect(vod.audio.map((a) => a.track.segments.length)).toEqual([2]);
    expect(vod.maxSegmentMs).toBe(4000);
  });

  it.each([
    ['vod_not_found', 404, 1000],
    ['vod_unavailable', 500, 1000],
    ['vod_malformed', 'not a playlist', 1000],
    ['vod_timeout', { delayMs: 2000 }, 50],
  ] as const)('reports %s', async (code, route, timeoutMs) => {
    const origin = new FakeOrigin();
    origin.routes.set('https://o.test/bad.m3u8', route);
    const err = await loadVod('https://o.test/bad.m3u8', opts(origin, timeoutMs)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VodLoadError);
    expect((err as VodLoadError).code).toBe(code);
  });
});
