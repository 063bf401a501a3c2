import { describe, expect, it } from 'vitest';
import {
  firstVariantUri,
  mediaPlaylistDurationMs,
  PlaylistFormatError,
  secondsToMicros,
} from '../../functions/schedule/planning/hls-playlist';

const media = (durations: string[]) =>
  [
    '#EXTM3U',
    '#EXT-X-TARGETDURATION:3',
    ...durations.flatMap((d, i) => [`#EXTINF:${d},`, `seg${i}.ts`]),
    '#EXT-X-ENDLIST',
  ].join('\n');

describe('HLS durations', () => {
  it('sums EXTINF exactly to the millisecond', () => {
    expect(mediaPlaylistDurationMs(media(Array(1000).fill('2.002')))).toBe(2_002_000);
    expect(mediaPlaylistDurationMs(media(['10.010010', '10.010010', '0.5']))).toBe(20_520);
    // Rounding each segment to the millisecond would give 3003.
    expect(mediaPlaylistDurationMs(media(['1.0005', '1.0005', '1.0005']))).toBe(3002);
  });

  it('reads EXTINF with titles and integer durations', () => {
    expect(mediaPlaylistDurationMs('#EXTM3U\n#EXTINF:4,title here\na.ts\n#EXTINF:6\nb.ts\n')).toBe(10_000);
  });

  it('parses decimal seconds as microseconds without float error', () => {
    expect(secondsToMicros('2.002')).toBe(2_002_000);
    expect(secondsToMicros('0.1234565')).toBe(123_457);
    expect(() => secondsToMicros('abc')).toThrow(PlaylistFormatError);
  });

  it('refuses a media playlist without segments', () => {
    expect(() => mediaPlaylistDurationMs('#EXTM3U\n#EXT-X-ENDLIST\n')).toThrow(PlaylistFormatError);
  });

  it('finds the first variant of a master and resolves it against the master URL', () => {
    const master = [
      '#EXTM3U',
      '#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x180',
      'low/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360',
      'high/index.m3u8',
    ].join('\n');
    expect(firstVariantUri(master, 'http://cdn/vod/master.m3u8')).toBe('http://cdn/vod/low/index.m3u8');
  });

  it('reports no variant for a media playlist', () => {
    expect(firstVariantUri(media(['2']), 'http://cdn/a.m3u8')).toBeUndefined();
  });
});
