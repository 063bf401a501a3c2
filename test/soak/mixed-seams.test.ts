import { describe, expect, it } from 'vitest';
import { countSeams, newSeams, segmentKind } from '../../scripts/soak/mixed/seams';

const sources = [
  { prefix: 'http://127.0.0.1:9000/cmaf/', kind: 'cmaf-vod' },
  { prefix: 'http://127.0.0.1:9000/preroll/', kind: 'ts-preroll' },
  { prefix: 'http://127.0.0.1:9100/', kind: 'live-ts' },
];
const seg = (mediaSequence: number, uri: string) => ({
  mediaSequence,
  uri,
  programDateTimeMs: 1_000 * mediaSequence,
});

describe('seams of the mixed channel', () => {
  it("names a segment by the source whose prefix it starts with, the engine's slate as slate", () => {
    expect(segmentKind('http://127.0.0.1:9000/cmaf/v0/seg_1.m4s', sources)).toBe('cmaf-vod');
    expect(segmentKind('http://127.0.0.1:9100/v0_12.ts', sources)).toBe('live-ts');
    expect(segmentKind('http://localhost:8000/slate/slate_0.ts', sources)).toBe('slate');
    expect(segmentKind('http://127.0.0.1:9200/v0_1.ts', sources)).toBe('other');
  });

  it('reports a seam where the kind changes, at the program date-time of the first segment after it', () => {
    const { seams } = newSeams(
      { lastMsn: -1 },
      [
        seg(1, 'http://127.0.0.1:9000/preroll/v0/0.ts'),
        seg(2, 'http://127.0.0.1:9000/cmaf/v0/0.m4s'),
        seg(3, 'http://127.0.0.1:9000/cmaf/v0/1.m4s'),
        seg(4, 'http://127.0.0.1:9100/v0_7.ts'),
      ],
      sources,
    );
    expect(seams).toEqual([
      { atMs: 2000, mediaSequence: 2, from: 'ts-preroll', to: 'cmaf-vod' },
      { atMs: 4000, mediaSequence: 4, from: 'cmaf-vod', to: 'live-ts' },
    ]);
  });

  it('reports each seam once across reloads that list the same segments again', () => {
    const first = newSeams(
      { lastMsn: -1 },
      [seg(1, 'http://127.0.0.1:9000/cmaf/v0/0.m4s'), seg(2, 'http://localhost:8000/slate/slate_0.ts')],
      sources,
    );
    const again = newSeams(
      first.state,
      [seg(2, 'http://localhost:8000/slate/slate_0.ts'), seg(3, 'http://localhost:8000/slate/slate_1.ts')],
      sources,
    );
    expect(first.seams).toHaveLength(1);
    expect(again.seams).toEqual([]);
    expect(again.state).toEqual({ lastMsn: 3, lastKind: 'slate' });
  });

  it('counts seams by their two sides', () => {
    const seam = (from: string, to: string) => ({ mediaSequence: 0, from, to });
    expect([...countSeams([seam('a', 'b'), seam('b', 'a'), seam('a', 'b')])]).toEqual([
      ['a → b', 2],
      ['b → a', 1],
    ]);
  });
});
