/**
 * docs/media.md "Ladder changes between items": how each output rendition of a channel finds its
 * source in a VOD whose ladder differs from the one the channel started with.
 */
import { describe, expect, it } from 'vitest';
import { parseMasterPlaylist } from '../../engine-container/src/hls/parse-master';
import { trackFor } from '../../engine-container/src/ladder/map-rendition';
import { buildLadder, type OutputLadder } from '../../engine-container/src/ladder/output-ladder';
import { buildParsedVod, type ParsedVod } from '../../engine-container/src/vod/parsed-vod';
import { MAPPING, makeVod } from '../engine/helpers/log';

const ON = { useDemuxedAudio: true, useVTTSubtitles: true };
const first = (vod: ParsedVod, ladder: OutputLadder, key: string) =>
  trackFor(vod, ladder, key, MAPPING).segments[0]!.uri;

/** A VOD with the given rungs; `audio-only` rungs have no resolution and an audio codec only. */
function vodOf(name: string, rungs: Array<{ bw: number; h?: number }>): ParsedVod {
  return buildParsedVod(
    `https://o.test/${name}/master.m3u8`,
    rungs.map((r) => ({
      variant: {
        uri: `https://o.test/${name}/${r.bw}.m3u8`,
        bandwidth: r.bw,
        ...(r.h ? { resolution: { width: r.h * 2, height: r.h } } : {}),
        codecs: r.h ? 'avc1.64001f,mp4a.40.2' : 'mp4a.40.2',
      },
      playlist: { segments: [{ uri: `${name}-${r.bw}.ts`, durationMs: 2000, discontinuity: false }] },
    })),
    [],
  );
}

describe('a channel whose items have different ladders', () => {
  const three = vodOf('three', [
    { bw: 400_000, h: 180 },
    { bw: 1_200_000, h: 360 },
    { bw: 3_000_000, h: 720 },
  ]);
  const ladder = buildLadder({ id: 'c', name: 'c' }, three, ON);

  it('maps 3 rungs onto a 2-rung VOD by nearest bandwidth', () => {
    const two = vodOf('two', [
      { bw: 500_000, h: 234 },
      { bw: 2_500_000, h: 540 },
    ]);
    expect([0, 1, 2].map((k) => first(two, ladder, `v${k}`))).toEqual([
      'two-500000.ts',
      'two-500000.ts',
      'two-2500000.ts',
    ]);
  });

  it('maps rung for rung by rank when the counts match, whatever the resolutions', () => {
    const other = vodOf('other', [
      { bw: 9_000_000, h: 1080 },
      { bw: 100_000, h: 144 },
      { bw: 800_000, h: 432 },
    ]);
    expect([0, 1, 2].map((k) => first(other, ladder, `v${k}`))).toEqual([
      'other-100000.ts',
      'other-800000.ts',
      'other-9000000.ts',
    ]);
  });

  it('never maps a video rung to an audio-only rung of the VOD', () => {
    const withAudioOnly = vodOf('ao', [{ bw: 64_000 }, { bw: 600_000, h: 270 }, { bw: 2_000_000, h: 720 }]);
    expect([0, 1, 2].map((k) => first(withAudioOnly, ladder, `v${k}`))).toEqual([
      'ao-600000.ts',
      'ao-600000.ts',
      'ao-2000000.ts',
    ]);
  });

  it('maps an audio-only rung of the channel to the audio-only rung of the VOD', () => {
    const channelLadder = buildLadder(
      { id: 'c', name: 'c' },
      vodOf('start', [{ bw: 96_000 }, { bw: 1_000_000, h: 360 }]),
      ON,
    );
    const later = vodOf('later', [{ bw: 3_000_000, h: 720 }, { bw: 800_000, h: 360 }, { bw: 48_000 }]);
    expect(first(later, channelLadder, 'v0')).toBe('later-48000.ts');
    expect(first(later, channelLadder, 'v1')).toBe('later-800000.ts');
  });

  it("maps a slate's rungs by picture size, the nearer smaller one on a tie, whatever their bandwidth", () => {
    // A still picture costs a few tens of kbit/s at any size: bandwidth would put every rung on one.
    const slate = vodOf('slate', [
      { bw: 60_000, h: 360 },
      { bw: 55_000, h: 180 },
      { bw: 70_000, h: 720 },
    ]);
    const bySize = (k: number) => trackFor(slate, ladder, `v${k}`, MAPPING, 'size').segments[0]!.uri;
    expect([0, 1, 2].map(bySize)).toEqual(['slate-55000.ts', 'slate-60000.ts', 'slate-70000.ts']);
    const tie = vodOf('tie', [
      { bw: 70_000, h: 540 },
      { bw: 60_000, h: 900 },
    ]);
    expect(trackFor(tie, ladder, 'v2', MAPPING, 'size').segments[0]!.uri).toBe('tie-70000.ts');
  });

  it('reads a source with I-frame playlists exactly as the same source without them', () => {
    const plain = [
      '#EXTM3U',
      '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360',
      '360.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x180',
      '180.m3u8',
    ];
    const iframes = [
      ...plain,
      '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,RESOLUTION=640x360,URI="360-iframes.m3u8"',
    ];
    const base = 'https://o.test/i/master.m3u8';
    expect(parseMasterPlaylist(iframes.join('\n'), base)).toEqual(
      parseMasterPlaylist(plain.join('\n'), base),
    );
  });
});

describe('audio of a channel', () => {
  it('plays demuxed audio when its first VOD has audio renditions, with no configuration of the channel', () => {
    const vod = makeVod(
      'https://o.test/d/master.m3u8',
      [{ bandwidth: 1_000_000, height: 360, segmentsMs: [2000] }],
      [
        { language: 'en', segmentsMs: [2000], default: true },
        { language: 'sv', segmentsMs: [2000] },
      ],
    );
    const ladder = buildLadder({ id: 'c', name: 'c' }, vod, ON);
    expect(ladder.audio.map((a) => [a.groupId, a.language, a.default])).toEqual([
      ['aud', 'en', 1],
      ['aud', 'sv', 0],
    ]);
    expect(ladder.variants[0]!.audioGroup).toBe('aud');
  });

  it('plays demuxed audio when the channel declares tracks, even if its first VOD has muxed audio', () => {
    const muxed = makeVod('https://o.test/m/master.m3u8', [
      { bandwidth: 1_000_000, height: 360, segmentsMs: [2000] },
    ]);
    const ladder = buildLadder(
      { id: 'c', name: 'c', audioTracks: [{ language: 'en', name: 'English' }] },
      muxed,
      ON,
    );
    expect(ladder.audio.map((a) => [a.groupId, a.language])).toEqual([['audio', 'en']]);
    // The muxed VOD's reference variant carries the sound of the audio rendition.
    expect(first(muxed, ladder, 'a:audio:en')).toBe('https://o.test/m/v0-0.ts');
  });

  it('plays the VOD default track for a channel language the VOD lacks', () => {
    const vod = makeVod(
      'https://o.test/d/master.m3u8',
      [{ bandwidth: 1, segmentsMs: [2000] }],
      [
        { language: 'fr', segmentsMs: [2000] },
        { language: 'de', segmentsMs: [2000], default: true },
      ],
    );
    const ladder = buildLadder(
      { id: 'c', name: 'c', audioTracks: [{ language: 'sv', name: 'Svenska' }] },
      vod,
      ON,
    );
    expect(first(vod, ladder, 'a:aud:sv')).toBe('https://o.test/d/aud1-0.aac');
  });

  it('takes a profile rung with channels "16/JOC" from the source group with the same channels', () => {
    const audio = (groupId: string, channels: string) => ({
      media: {
        type: 'AUDIO' as const,
        groupId,
        name: 'English',
        language: 'en',
        default: true,
        autoselect: true,
        channels,
        uri: `https://o.test/j/${groupId}.m3u8`,
      },
      playlist: { segments: [{ uri: `${groupId}.m4s`, durationMs: 2000, discontinuity: false }] },
    });
    const vod = buildParsedVod(
      'https://o.test/j/master.m3u8',
      [
        {
          variant: { uri: 'https://o.test/j/v.m3u8', bandwidth: 5_000_000, audioGroup: 'stereo' },
          playlist: { segments: [{ uri: 'v.m4s', durationMs: 2000, discontinuity: false }] },
        },
      ],
      [audio('stereo', '2'), audio('atmos', '16/JOC')],
    );
    const ladder = buildLadder(
      {
        id: 'c',
        name: 'c',
        audioTracks: [{ language: 'en', name: 'English' }],
        profile: [
          { resolution: [1280, 720], bw: 3_000_000, codecs: 'avc1.64001f,mp4a.40.2' },
          { resolution: [1920, 1080], bw: 8_000_000, codecs: 'avc1.640028,ec-3', channels: '16/JOC' },
        ],
      },
      vod,
      ON,
    );
    expect(first(vod, ladder, 'a:ec-3-16_JOC:en')).toBe('atmos.m4s');
    expect(first(vod, ladder, 'a:mp4a.40.2-2:en')).toBe('stereo.m4s');
  });
});

describe('subtitles of a channel', () => {
  it('lists the first VOD subtitle languages and points a VOD without one at the empty-WebVTT endpoint', () => {
    const subbed = makeVod(
      'https://o.test/s/master.m3u8',
      [{ bandwidth: 1, segmentsMs: [2000, 2000] }],
      [],
      [
        { language: 'en', segmentsMs: [2000, 2000] },
        { language: 'sv', segmentsMs: [2000, 2000] },
      ],
    );
    const ladder = buildLadder({ id: 'c', name: 'c' }, subbed, ON);
    expect(ladder.subtitles.map((s) => [s.language, s.default])).toEqual([
      ['en', 0],
      ['sv', 0],
    ]);
    expect(first(subbed, ladder, 's:sv')).toBe('https://o.test/s/sub1-0.vtt');
    const bare = makeVod('https://o.test/b/master.m3u8', [{ bandwidth: 1, segmentsMs: [2000] }]);
    expect(first(bare, ladder, 's:sv')).toBe('/vtt/dummyUrl?startMs=0&durationMs=2000');
  });
});
