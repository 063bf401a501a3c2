import { describe, expect, it } from 'vitest';
import { hlsArgs, lavfiTone } from '../../scripts/fixtures/ffmpeg-args';
import { fixtureKey } from '../../scripts/fixtures/generate';
import { renderMaster } from '../../scripts/fixtures/master-playlist';
import { demuxed, vodA, vodB, vodFmp4 } from '../../scripts/fixtures/recipes';
import { evenCues, segmentCues, vttTimestamp } from '../../scripts/fixtures/webvtt';
import { parseMasterPlaylist, parseMediaPlaylist, playlistDuration } from '../support/hls-playlist';

const optionValue = (args: string[], flag: string): string | undefined => args[args.indexOf(flag) + 1];

describe('ffmpeg command lines', () => {
  it.each([vodA, vodB, vodFmp4])('puts a keyframe exactly at every segment boundary of $name', (recipe) => {
    const args = hlsArgs(recipe, undefined);
    const gop = String(recipe.fps * recipe.segmentSec);
    expect([
      optionValue(args, '-g'),
      optionValue(args, '-keyint_min'),
      optionValue(args, '-sc_threshold'),
    ]).toEqual([gop, gop, '0']);
    expect(optionValue(args, '-hls_time')).toBe(String(recipe.segmentSec));
  });

  it('gives each rung its own bit rate and variant', () => {
    const args = hlsArgs(vodB, undefined);
    vodB.ladder.forEach((rung, i) => {
      expect(optionValue(args, `-b:v:${i}`)).toBe(`${rung.kbps}k`);
    });
    expect(optionValue(args, '-var_stream_map')?.split(' ')).toHaveLength(vodB.ladder.length);
  });

  it('keeps demuxed audio out of the video variants, one rendition per language', () => {
    const map = optionValue(hlsArgs(demuxed, undefined), '-var_stream_map')?.split(' ') ?? [];
    expect(map.filter((v) => v.startsWith('v:')).every((v) => !v.includes(',a:'))).toBe(true);
    expect(map.filter((v) => v.startsWith('a:')).map((v) => /language:(\w+)/.exec(v)?.[1])).toEqual([
      'en',
      'sv',
    ]);
  });

  it('writes fMP4 segments for an fMP4 recipe', () => {
    const args = hlsArgs(vodFmp4, undefined);
    expect(optionValue(args, '-hls_segment_type')).toBe('fmp4');
    expect(optionValue(args, '-hls_segment_filename')).toMatch(/\.m4s$/);
  });

  it('draws the caption only when a font is available', () => {
    expect(optionValue(hlsArgs(vodA, undefined), '-filter_complex')).not.toContain('drawtext');
    expect(optionValue(hlsArgs(vodA, '/fonts/x.ttf'), '-filter_complex')).toContain(
      'drawtext=fontfile=/fonts/x.ttf',
    );
  });

  it('makes silence from a zero-frequency tone', () => {
    expect(lavfiTone({ frequencyHz: 0 }, 4)).toMatch(/^anullsrc=/);
    expect(lavfiTone({ frequencyHz: 440 }, 4)).toMatch(/^sine=frequency=440/);
  });
});

describe('fixture cache key', () => {
  const context = { ffmpeg: '/usr/bin/ffmpeg', generator: 'abc' };

  it('is the same for the same recipe and tools', () => {
    expect(fixtureKey(vodA, context)).toBe(fixtureKey({ ...vodA }, { ...context }));
  });

  it.each([
    ['a recipe parameter', { ...vodA, durationSec: 21 }, context],
    ['the ffmpeg', vodA, { ...context, ffmpeg: '/opt/ffmpeg' }],
    ['the generator source', vodA, { ...context, generator: 'abd' }],
    ['the caption font', vodA, { ...context, font: '/fonts/x.ttf' }],
  ])('changes with %s', (_, recipe, changed) => {
    expect(fixtureKey(recipe, changed)).not.toBe(fixtureKey(vodA, context));
  });
});

describe('master playlist writer', () => {
  it('writes what the parser reads back', () => {
    const text = renderMaster({
      version: 3,
      renditions: [
        {
          type: 'AUDIO',
          groupId: 'aac',
          name: 'Svenska',
          language: 'sv',
          uri: 'sv/index.m3u8',
          default: true,
          channels: 2,
        },
        {
          type: 'SUBTITLES',
          groupId: 'subs',
          name: 'English',
          language: 'en',
          uri: 'en/index.m3u8',
          default: false,
        },
      ],
      variants: [
        {
          uri: '360p/index.m3u8',
          bandwidth: 900_001,
          averageBandwidth: 800_002,
          width: 640,
          height: 360,
          frameRate: 25,
          codecs: 'avc1.42c01e,mp4a.40.2',
          audioGroup: 'aac',
          subtitlesGroup: 'subs',
        },
      ],
    });
    const master = parseMasterPlaylist(text);
    expect(master.independentSegments).toBe(true);
    expect(master.variants[0]).toMatchObject({
      bandwidth: 900_001,
      averageBandwidth: 800_002,
      resolution: { width: 640, height: 360 },
      codecs: ['avc1.42c01e', 'mp4a.40.2'],
      audio: 'aac',
      subtitles: 'subs',
    });
    expect(master.renditions.map((r) => [r.type, r.language, r.default, r.attributes.CHANNELS])).toEqual([
      ['AUDIO', 'sv', true, '2'],
      ['SUBTITLES', 'en', false, undefined],
    ]);
  });
});

describe('WebVTT segmenter', () => {
  const cues = evenCues(12, 3, 'English');
  const { files, playlist } = segmentCues(cues, { durationSec: 12, segmentSec: 2, mpegtsStart: 127_920 });

  it('cuts segments of the segment length that add up to the duration', () => {
    const p = parseMediaPlaylist(playlist);
    expect(p.segments.map((s) => s.duration)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(playlistDuration(p)).toBe(12);
    expect([...files.keys()]).toEqual(p.segments.map((s) => s.uri));
  });

  it('repeats a cue in every segment it overlaps, and only there', () => {
    const segmentsWith = (text: string) =>
      [...files.entries()].filter(([, vtt]) => vtt.includes(`${text}\n`));
    // Cue 2 runs 3-6 s: segments 1 (2-4 s) and 2 (4-6 s).
    expect(segmentsWith('English subtitle 2').map(([name]) => name)).toEqual(['seg_001.vtt', 'seg_002.vtt']);
  });

  it('pins cue time zero to the given MPEG-TS timestamp in every segment', () => {
    for (const vtt of files.values()) {
      expect(vtt.split('\n').slice(0, 2)).toEqual([
        'WEBVTT',
        'X-TIMESTAMP-MAP=MPEGTS:127920,LOCAL:00:00:00.000',
      ]);
    }
  });

  it('writes timestamps as hh:mm:ss.mmm', () => {
    expect(vttTimestamp(3723.5)).toBe('01:02:03.500');
    expect(vttTimestamp(0)).toBe('00:00:00.000');
  });
});
