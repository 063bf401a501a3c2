import { describe, expect, it } from 'vitest';
import { mapVariantIndex, trackFor } from '../../engine-container/src/ladder/map-rendition';
import { buildLadder } from '../../engine-container/src/ladder/output-ladder';
import { applyFilter, FilterError, parseFilter } from '../../engine-container/src/render/filter';
import { renderMasterPlaylist } from '../../engine-container/src/render/master-playlist';
import type { Channel } from '../../engine-container/src/types';
import { parseMasterPlaylist } from '../support/hls-playlist';
import { MAPPING, makeVod } from './helpers/log';

const threeRungs = makeVod('https://o.test/a/master.m3u8', [
  { bandwidth: 400_000, height: 180, segmentsMs: [2000] },
  { bandwidth: 1_200_000, height: 360, segmentsMs: [2000] },
  { bandwidth: 3_000_000, height: 720, segmentsMs: [2000] },
]);
const channel: Channel = { id: 'ch1', name: 'Channel one' };
const opts = { useDemuxedAudio: false, useVTTSubtitles: false };
const ladder = buildLadder(channel, threeRungs, opts);
const kept = (filter: string) => applyFilter(ladder.variants, parseFilter(filter));

describe('the master manifest filter', () => {
  it('keeps video variants above a height', () => {
    expect(kept('(type=="video"ANDheight>200)')).toEqual([1, 2]);
  });

  it('keeps video variants below a system bitrate', () => {
    expect(kept('(type=="video"ANDsystemBitrate<1600000)')).toEqual([0, 1]);
  });

  it('combines terms with AND', () => {
    expect(kept('(type=="video"ANDheight>200)AND(type=="video"ANDsystemBitrate<1600000)')).toEqual([1]);
  });

  it('can remove every variant (the engine answers 400 then)', () => {
    expect(kept('(type=="video"ANDheight>5000)')).toEqual([]);
  });

  it.each([
    'height>200',
    '(type=="audio"ANDheight>200)',
    '(type=="video"ANDwidth>1)',
    '(type=="video"ANDheight>=1)',
    '(type=="video")',
    '(type=="video"ANDheight>200)OR(type=="video"ANDheight<9)',
  ])('rejects the malformed filter %s', (filter) => {
    expect(() => parseFilter(filter)).toThrow(FilterError);
  });

  it('never filters audio-only variants', () => {
    const variants = [{ bandwidth: 64_000, codecs: 'mp4a.40.2' }, ...ladder.variants];
    expect(applyFilter(variants, parseFilter('(type=="video"ANDheight>5000)'))).toEqual([0]);
  });
});

describe('the master manifest', () => {
  it('lists the ladder with stable variant URIs, also when filtered', () => {
    const text = renderMasterPlaylist(channel, ladder, { noSessionDataTags: false, variantIndexes: [1, 2] });
    const master = parseMasterPlaylist(text);
    expect(master.variants.map((v) => [v.uri, v.bandwidth, v.resolution?.height])).toEqual([
      ['1.m3u8', 1_200_000, 360],
      ['2.m3u8', 3_000_000, 720],
    ]);
    expect(text).toContain('#EXT-X-SESSION-DATA:DATA-ID="com.onair.channel.id",VALUE="ch1"');
    expect(renderMasterPlaylist(channel, ladder, { noSessionDataTags: true })).not.toContain('SESSION-DATA');
  });

  it('declares demuxed audio, subtitles and closed captions', () => {
    const vod = makeVod(
      'https://o.test/d/master.m3u8',
      [{ bandwidth: 1, height: 360, segmentsMs: [2000] }],
      [{ language: 'en', segmentsMs: [2000] }],
    );
    const ch: Channel = {
      ...channel,
      audioTracks: [
        { language: 'en', name: 'English' },
        { language: 'sv', name: 'Svenska', default: true },
      ],
      subtitleTracks: [{ language: 'sv', name: 'Svenska' }],
      closedCaptions: [{ lang: 'en', name: 'English CC', id: 'CC1', auto: true }],
    };
    const text = renderMasterPlaylist(
      ch,
      buildLadder(ch, vod, { useDemuxedAudio: true, useVTTSubtitles: true }),
      { noSessionDataTags: true },
    );
    expect(text).toContain(
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="en",NAME="English",DEFAULT=NO,AUTOSELECT=YES,URI="audio/aud/en.m3u8"',
    );
    expect(text).toContain('LANGUAGE="sv",NAME="Svenska",DEFAULT=YES');
    expect(text).toContain(
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="sv",NAME="Svenska",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI="subs/sv.m3u8"',
    );
    expect(text).toContain('INSTREAM-ID="CC1"');
    expect(text).toContain('AUDIO="aud",SUBTITLES="subs",CLOSED-CAPTIONS="cc"\n0.m3u8');
  });

  it("does not make a VOD's DEFAULT=YES subtitle the channel's default (docs/media.md)", () => {
    const base = makeVod('https://o.test/s/master.m3u8', [{ bandwidth: 1, height: 360, segmentsMs: [2000] }]);
    const defaultFrench = { type: 'SUBTITLES', language: 'fr', name: 'Français', default: true };
    const vod = { ...base, subtitles: [defaultFrench] } as unknown as typeof base;
    const ladder = buildLadder(channel, vod, { useDemuxedAudio: true, useVTTSubtitles: true });
    const text = renderMasterPlaylist(channel, ladder, { noSessionDataTags: true });
    expect(text).toContain('TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="fr",NAME="Français",DEFAULT=NO');
    const asked: Channel = {
      ...channel,
      subtitleTracks: [{ language: 'fr', name: 'Français', default: true }],
    };
    const chosen = renderMasterPlaylist(
      asked,
      buildLadder(asked, vod, { useDemuxedAudio: true, useVTTSubtitles: true }),
      {
        noSessionDataTags: true,
      },
    );
    expect(chosen).toContain('LANGUAGE="fr",NAME="Français",DEFAULT=YES');
  });

  it('takes the ladder from the channel profile when there is one', () => {
    const ch: Channel = {
      ...channel,
      profile: [
        { resolution: [640, 360], bw: 1_000_000, codecs: 'avc1.64001f,mp4a.40.2' },
        { resolution: [1280, 720], bw: 3_000_000, codecs: 'avc1.64001f,ec-3', channels: '6' },
      ],
      audioTracks: [{ language: 'en', name: 'English' }],
    };
    const profiled = buildLadder(ch, threeRungs, { useDemuxedAudio: true, useVTTSubtitles: false });
    expect(profiled.variants.map((v) => [v.bandwidth, v.height, v.audioGroup])).toEqual([
      [1_000_000, 360, 'mp4a.40.2-2'],
      [3_000_000, 720, 'ec-3-6'],
    ]);
    expect(profiled.audio.map((a) => [a.groupId, a.channels])).toEqual([
      ['mp4a.40.2-2', '2'],
      ['ec-3-6', '6'],
    ]);
  });
});

describe('mapping renditions between VODs of different ladders', () => {
  it('maps by rank when the variant counts match', () => {
    expect(mapVariantIndex([300, 800, 2000], 2, [5000, 100, 900], false)).toBe(0);
  });

  it('maps to the nearest bandwidth when the counts differ, or always when asked', () => {
    expect(mapVariantIndex([300, 800], 1, [250, 700, 1400], false)).toBe(1);
    expect(mapVariantIndex([300, 800, 2000], 0, [100, 900, 5000], true)).toBe(0);
    expect(mapVariantIndex([300, 800, 2000], 2, [100, 900, 5000], true)).toBe(1);
  });

  it('plays the VOD default audio when a language is missing', () => {
    const vod = makeVod(
      'https://o.test/d/master.m3u8',
      [{ bandwidth: 1, segmentsMs: [2000] }],
      [
        { language: 'en', segmentsMs: [2000] },
        { language: 'de', segmentsMs: [2000], default: true },
      ],
    );
    const out = {
      variants: [{ bandwidth: 1 }],
      audio: [{ groupId: 'aud', language: 'sv', name: 'sv', default: 1 }],
      subtitles: [],
    };
    expect(trackFor(vod, out, 'a:aud:sv', MAPPING).segments[0]!.uri).toBe('https://o.test/d/aud1-0.aac');
  });

  it('points a missing subtitle language at the dummy WebVTT endpoint on the video boundaries', () => {
    const vod = makeVod('https://o.test/d/master.m3u8', [{ bandwidth: 1, segmentsMs: [2000, 4000] }]);
    const out = {
      variants: [{ bandwidth: 1 }],
      audio: [],
      subtitles: [{ language: 'sv', name: 'sv', default: 0 }],
    };
    expect(trackFor(vod, out, 's:sv', MAPPING).segments.map((s) => [s.uri, s.durationMs])).toEqual([
      ['/vtt/dummyUrl?startMs=0&durationMs=2000', 2000],
      ['/vtt/dummyUrl?startMs=2000&durationMs=4000', 4000],
    ]);
  });

  it('slices a whole-file WebVTT on the video boundaries', () => {
    const vod = makeVod(
      'https://o.test/d/master.m3u8',
      [{ bandwidth: 1, segmentsMs: [2000, 2000] }],
      [],
      [{ language: 'en', segmentsMs: [4000] }],
    );
    const out = {
      variants: [{ bandwidth: 1 }],
      audio: [],
      subtitles: [{ language: 'en', name: 'en', default: 0 }],
    };
    const uris = trackFor(vod, out, 's:en', MAPPING).segments.map((s) => s.uri);
    expect(uris[1]).toBe(
      `/vtt/sliceUrl?uri=${encodeURIComponent('https://o.test/d/sub0-0.vtt')}&startMs=2000&endMs=4000`,
    );
  });
});
