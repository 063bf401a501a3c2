import { describe, expect, it } from 'vitest';
import {
  isMasterPlaylist,
  PlaylistSyntaxError,
  parseAttributeList,
  parseMasterPlaylist,
  parseMediaPlaylist,
  playlistDuration,
} from '../support/hls-playlist';

const live = `#EXTM3U
#EXT-X-VERSION:6
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:40
#EXT-X-DISCONTINUITY-SEQUENCE:3
#EXT-X-MAP:URI="init.mp4"
#EXT-X-PROGRAM-DATE-TIME:2030-01-01T00:00:00.000Z
#EXTINF:2.000,
a/40.m4s
#EXT-X-DISCONTINUITY
#EXT-X-MAP:URI="other-init.mp4",BYTERANGE="720@0"
#EXTINF:1.5,title
#EXT-X-BYTERANGE:1000@2000
b/all.m4s
`;

const master = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="sv",NAME="Svenska",DEFAULT=NO,AUTOSELECT=YES,URI="audio/sv.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="en",NAME="English",DEFAULT=YES,URI="subs/en.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=1200000,AVERAGE-BANDWIDTH=1000000,RESOLUTION=640x360,FRAME-RATE=25.000,CODECS="avc1.42c01e,mp4a.40.2",AUDIO="aac",SUBTITLES="subs"
360p/index.m3u8
`;

describe('media playlist parser', () => {
  it('numbers segments from EXT-X-MEDIA-SEQUENCE and counts discontinuities at or before each one', () => {
    const p = parseMediaPlaylist(live);
    expect(p.mediaSequence).toBe(40);
    expect(p.segments.map((s) => [s.mediaSequence, s.discontinuity, s.discontinuitySequence])).toEqual([
      [40, false, 3],
      [41, true, 4],
    ]);
  });

  it('keeps dates, byte ranges and the EXT-X-MAP in force on each segment', () => {
    const [a, b] = parseMediaPlaylist(live).segments;
    expect(a?.programDateTimeMs).toBe(Date.parse('2030-01-01T00:00:00.000Z'));
    expect(a?.map).toEqual({ uri: 'init.mp4' });
    expect(b?.programDateTimeMs).toBeUndefined();
    expect(b?.byteRange).toBe('1000@2000');
    expect(b?.map).toEqual({ uri: 'other-init.mp4', byteRange: '720@0' });
  });

  it('adds up EXTINF durations', () => {
    expect(playlistDuration(parseMediaPlaylist(live))).toBeCloseTo(3.5, 9);
  });

  it.each([
    ['no #EXTM3U header', '#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n'],
    ['a non-numeric EXTINF', '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:two,\na.ts\n'],
    ['a URI without EXTINF', '#EXTM3U\n#EXT-X-TARGETDURATION:2\na.ts\n'],
    ['an EXTINF without a URI', '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n'],
    ['no EXT-X-TARGETDURATION', '#EXTM3U\n#EXTINF:2,\na.ts\n'],
    ['a master playlist', master],
  ])('rejects a playlist with %s', (_, text) => {
    expect(() => parseMediaPlaylist(text)).toThrow(PlaylistSyntaxError);
  });
});

describe('master playlist parser', () => {
  it('reads variants with their resolution, codecs and groups', () => {
    const [variant] = parseMasterPlaylist(master).variants;
    expect(variant).toMatchObject({
      uri: '360p/index.m3u8',
      bandwidth: 1_200_000,
      averageBandwidth: 1_000_000,
      resolution: { width: 640, height: 360 },
      frameRate: 25,
      codecs: ['avc1.42c01e', 'mp4a.40.2'],
      audio: 'aac',
      subtitles: 'subs',
    });
  });

  it('reads renditions with type, group, language and default', () => {
    expect(
      parseMasterPlaylist(master).renditions.map((r) => [r.type, r.groupId, r.language, r.default]),
    ).toEqual([
      ['AUDIO', 'aac', 'sv', false],
      ['SUBTITLES', 'subs', 'en', true],
    ]);
  });

  it('tells a master playlist from a media playlist', () => {
    expect(isMasterPlaylist(master)).toBe(true);
    expect(isMasterPlaylist(live)).toBe(false);
  });

  it('rejects a variant without BANDWIDTH', () => {
    expect(() => parseMasterPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\na.m3u8\n')).toThrow(
      /BANDWIDTH/,
    );
  });
});

describe('attribute lists', () => {
  it('keeps commas inside quoted strings and unquotes them', () => {
    expect(parseAttributeList('BANDWIDTH=1,CODECS="a,b",NAME="x y",IV=0x1F')).toEqual({
      BANDWIDTH: '1',
      CODECS: 'a,b',
      NAME: 'x y',
      IV: '0x1F',
    });
  });

  it('rejects an unterminated quoted string', () => {
    expect(() => parseAttributeList('URI="a.m3u8')).toThrow(PlaylistSyntaxError);
  });
});
