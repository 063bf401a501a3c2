import { describe, expect, it } from 'vitest';
import type { SegmentCue } from '../../engine-container/src/hls/parse-cues';
import type { SourceSegment } from '../../engine-container/src/hls/parse-media';
import { placeCues } from '../../engine-container/src/live/live-cues';

const segs = (cues: Array<SegmentCue | undefined>): SourceSegment[] =>
  cues.map((cue, i) => ({
    uri: `s${i}.ts`,
    durationMs: 2000,
    discontinuity: false,
    ...(cue ? { cue } : {}),
  }));

describe("a live source's cues on the channel's clock", () => {
  it('gives a break without a source ID one made of the event and the media sequence number, and a CONT on each untagged segment until its planned end', () => {
    const { cues, open } = placeCues(
      segs([{ kind: 'out', durationMs: 4000 }, undefined, undefined]),
      100,
      50_000,
      'ev',
      undefined,
    );
    expect(cues).toEqual([
      { kind: 'out', id: 'ev-100', startMs: 50_000, durationMs: 4000 },
      { kind: 'cont', id: 'ev-100', startMs: 50_000, durationMs: 4000 },
      undefined,
    ]);
    expect(open).toEqual({ id: 'ev-100', startMs: 50_000, durationMs: 4000 });
  });

  it('closes a break open in an earlier item with the OUT date range ID and start', () => {
    const { cues, open } = placeCues(segs([{ kind: 'in' }]), 7, 60_000, 'ev', {
      id: 'splice-1',
      startMs: 50_000,
    });
    expect(cues).toEqual([{ kind: 'in', id: 'splice-1', startMs: 50_000 }]);
    expect(open).toBeUndefined();
  });

  it('starts a break joined mid-way where the source says it started', () => {
    const { cues } = placeCues(
      segs([{ kind: 'cont', elapsedMs: 6000, durationMs: 10_000 }]),
      9,
      60_000,
      'ev',
      undefined,
    );
    expect(cues).toEqual([
      { kind: 'cont', id: 'ev-9', startMs: 54_000, elapsedMs: 6000, durationMs: 10_000 },
    ]);
  });

  it('gives an IN whose OUT it never saw no start: it is said as CUE-IN only', () => {
    const { cues } = placeCues(segs([{ kind: 'in', id: 'x' }]), 3, 60_000, 'ev', undefined);
    expect(cues).toEqual([{ kind: 'in', id: 'x' }]);
  });
});
