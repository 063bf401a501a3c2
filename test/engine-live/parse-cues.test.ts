import { describe, expect, it } from 'vitest';
import { mergeCues, readCueTag } from '../../engine-container/src/hls/parse-cues';
import { parseMediaPlaylist } from '../../engine-container/src/hls/parse-media';

describe('ad cues as packagers write them', () => {
  it('reads the CUE-OUT forms: a number, DURATION=, and none', () => {
    expect(readCueTag('#EXT-X-CUE-OUT:30')).toEqual({ kind: 'out', durationMs: 30_000 });
    expect(readCueTag('#EXT-X-CUE-OUT:DURATION=15.5')).toEqual({ kind: 'out', durationMs: 15_500 });
    expect(readCueTag('#EXT-X-CUE-OUT')).toEqual({ kind: 'out' });
  });

  it('reads CUE-OUT-CONT as ElapsedTime/Duration attributes and as elapsed/duration', () => {
    expect(readCueTag('#EXT-X-CUE-OUT-CONT:ElapsedTime=4.000,Duration=30,SCTE35=/DAlAAAA')).toEqual({
      kind: 'cont',
      elapsedMs: 4000,
      durationMs: 30_000,
    });
    expect(readCueTag('#EXT-X-CUE-OUT-CONT:6/30')).toEqual({
      kind: 'cont',
      elapsedMs: 6000,
      durationMs: 30_000,
    });
  });

  it('reads SCTE35-OUT and SCTE35-IN date ranges, and no other date range', () => {
    expect(
      readCueTag(
        '#EXT-X-DATERANGE:ID="s-1",START-DATE="2025-01-01T00:00:00Z",PLANNED-DURATION=10,SCTE35-OUT=0xFC30AB',
      ),
    ).toEqual({ kind: 'out', id: 's-1', scte35: '0xFC30AB', durationMs: 10_000 });
    expect(
      readCueTag('#EXT-X-DATERANGE:ID="s-1",START-DATE="2025-01-01T00:00:00Z",SCTE35-IN=0xfc30ab'),
    ).toEqual({
      kind: 'in',
      id: 's-1',
      scte35: '0xFC30AB',
    });
    expect(
      readCueTag('#EXT-X-DATERANGE:ID="meta",START-DATE="2025-01-01T00:00:00Z",X-COM-FOO="bar"'),
    ).toBeUndefined();
  });

  it('keeps nothing of a hostile cue that could break a playlist: a splice section that is no hex, quotes and line breaks in an ID', () => {
    const cue = readCueTag('#EXT-X-DATERANGE:ID="a\\"b",START-DATE="x",SCTE35-OUT=0xZZ"\n#EXT-X-ENDLIST');
    expect(cue).toEqual({ kind: 'out', id: 'a\\' });
  });

  it('merges a CUE-OUT and its date range before one segment into one OUT with every field', () => {
    const cue = mergeCues(
      readCueTag('#EXT-X-DATERANGE:ID="s",START-DATE="x",SCTE35-OUT=0xFC'),
      readCueTag('#EXT-X-CUE-OUT:10')!,
    );
    expect(cue).toEqual({ kind: 'out', id: 's', scte35: '0xFC', durationMs: 10_000 });
  });

  it('puts each cue on the segment after it', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:2',
      '#EXTINF:2,',
      'a.ts',
      '#EXT-X-CUE-OUT:4',
      '#EXTINF:2,',
      'b.ts',
      '#EXT-X-CUE-OUT-CONT:2/4',
      '#EXTINF:2,',
      'c.ts',
      '#EXT-X-CUE-IN',
      '#EXTINF:2,',
      'd.ts',
    ].join('\n');
    const cues = parseMediaPlaylist(text, 'https://live.test/x.m3u8').segments.map((s) => s.cue?.kind);
    expect(cues).toEqual([undefined, 'out', 'cont', 'in']);
  });
});
