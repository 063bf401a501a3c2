import { describe, expect, it } from 'vitest';
import { type MediaPlaylist, parseMediaPlaylist } from '../support/hls-playlist';
import { checkPlaylist, checkReloads, compareReloads, type Rule } from '../support/live-rules';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');

interface Seg {
  uri: string;
  duration?: number;
  discontinuity?: boolean;
  /** Date of the segment, ms; default: continuous from the first one. null leaves the tag out. */
  date?: number | null;
}

/**
 * Writes a live media playlist by hand (as text, then parsed, so the checker sees exactly what a
 * client would). Segments are dated continuously from `firstDateMs`.
 */
function playlist(opts: {
  seq: number;
  dseq?: number;
  target?: number;
  firstDateMs?: number;
  segments: (string | Seg)[];
  endList?: boolean;
}): MediaPlaylist {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${opts.target ?? 2}`];
  lines.push(`#EXT-X-MEDIA-SEQUENCE:${opts.seq}`, `#EXT-X-DISCONTINUITY-SEQUENCE:${opts.dseq ?? 0}`);
  let date = opts.firstDateMs ?? T0 + opts.seq * 2000;
  for (const entry of opts.segments) {
    const s: Seg = typeof entry === 'string' ? { uri: entry } : entry;
    if (s.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    if (s.date !== null) lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(s.date ?? date).toISOString()}`);
    lines.push(`#EXTINF:${(s.duration ?? 2).toFixed(3)},`, s.uri);
    date = (s.date ?? date) + (s.duration ?? 2) * 1000;
  }
  if (opts.endList) lines.push('#EXT-X-ENDLIST');
  return parseMediaPlaylist(`${lines.join('\n')}\n`);
}

const rules = (violations: { rule: Rule }[]) => violations.map((v) => v.rule);
const d = (uri: string): Seg => ({ uri, discontinuity: true });

describe('live playlist rules between reloads', () => {
  it('accepts a correct sliding window across a VOD change and its discontinuity falling off the top', () => {
    const reloads = [
      playlist({ seq: 10, segments: ['a/5.ts', 'a/6.ts', 'a/7.ts', d('b/0.ts')] }),
      playlist({ seq: 11, segments: ['a/6.ts', 'a/7.ts', d('b/0.ts'), 'b/1.ts'] }),
      playlist({ seq: 12, segments: ['a/7.ts', d('b/0.ts'), 'b/1.ts', 'b/2.ts'] }),
      playlist({ seq: 13, segments: [d('b/0.ts'), 'b/1.ts', 'b/2.ts', 'b/3.ts'] }),
      playlist({ seq: 14, dseq: 1, segments: ['b/1.ts', 'b/2.ts', 'b/3.ts', 'b/4.ts'] }),
    ];
    expect(checkReloads(reloads)).toEqual([]);
  });

  it('accepts a reload that changed nothing', () => {
    const p = playlist({ seq: 10, segments: ['a/5.ts', 'a/6.ts', 'a/7.ts'] });
    expect(compareReloads(p, p)).toEqual([]);
  });

  it('accepts the same media played again as a new item after a discontinuity (a looping slate)', () => {
    const prev = playlist({ seq: 20, segments: ['slate/0.ts', 'slate/1.ts', d('slate/0.ts')] });
    const next = playlist({ seq: 21, segments: ['slate/1.ts', d('slate/0.ts'), 'slate/1.ts'] });
    expect(compareReloads(prev, next)).toEqual([]);
  });

  it('accepts a server that drops the discontinuity tag from the first segment and counts it', () => {
    const prev = playlist({ seq: 12, segments: ['a/7.ts', d('b/0.ts'), 'b/1.ts'] });
    const next = playlist({ seq: 13, dseq: 1, segments: ['b/0.ts', 'b/1.ts', 'b/2.ts'] });
    expect(compareReloads(prev, next)).toEqual([]);
  });

  it('flags a media sequence that goes back', () => {
    const prev = playlist({ seq: 12, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] });
    const next = playlist({ seq: 11, segments: ['a/6.ts', 'a/7.ts', 'a/8.ts'] });
    expect(rules(compareReloads(prev, next))).toContain('media-sequence-decreased');
  });

  it('flags a media sequence number that names a different segment than before', () => {
    const prev = playlist({ seq: 12, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] });
    const next = playlist({ seq: 13, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] });
    const found = compareReloads(prev, next);
    expect(rules(found)).toContain('segment-changed');
    expect(found.find((v) => v.rule === 'segment-changed')?.mediaSequence).toBe(13);
  });

  it('flags a segment that reappears at another index with no discontinuity between', () => {
    const prev = playlist({ seq: 12, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] });
    const next = playlist({ seq: 14, segments: ['a/9.ts', 'a/10.ts', 'a/7.ts'] });
    const moved = compareReloads(prev, next).filter((v) => v.rule === 'segment-moved');
    expect(moved.map((v) => v.mediaSequence)).toEqual([16]);
  });

  it('flags a discontinuity sequence that does not count a tag that fell off the top', () => {
    const prev = playlist({ seq: 12, segments: ['a/7.ts', d('b/0.ts'), 'b/1.ts'] });
    const next = playlist({ seq: 14, dseq: 0, segments: ['b/1.ts', 'b/2.ts', 'b/3.ts'] });
    expect(rules(compareReloads(prev, next))).toEqual(['discontinuity-sequence']);
  });

  it('flags a discontinuity sequence that grows when no tag fell off', () => {
    const prev = playlist({ seq: 12, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] });
    const next = playlist({ seq: 13, dseq: 1, segments: ['a/8.ts', 'a/9.ts', 'a/10.ts'] });
    expect(rules(compareReloads(prev, next))).toEqual(['discontinuity-sequence']);
  });

  it('flags a discontinuity tag that appears on a segment already served without one', () => {
    const prev = playlist({ seq: 12, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] });
    const next = playlist({ seq: 13, segments: ['a/8.ts', d('a/9.ts'), 'a/10.ts'] });
    expect(rules(compareReloads(prev, next))).toEqual(['discontinuity-sequence']);
  });

  it('flags a discontinuity sequence that goes back across a jump with no segment in common', () => {
    const prev = playlist({ seq: 12, dseq: 4, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] });
    const next = playlist({ seq: 30, dseq: 2, segments: ['c/0.ts', 'c/1.ts', 'c/2.ts'] });
    expect(rules(compareReloads(prev, next))).toContain('discontinuity-sequence');
  });

  it('flags a target duration that changes', () => {
    const prev = playlist({ seq: 12, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] });
    const next = playlist({ seq: 13, target: 4, segments: ['a/8.ts', 'a/9.ts', 'a/10.ts'] });
    expect(rules(compareReloads(prev, next))).toEqual(['target-duration-changed']);
  });

  it('flags segments taken off the end of the playlist', () => {
    const prev = playlist({ seq: 12, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts', 'a/10.ts'] });
    const next = playlist({ seq: 12, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] });
    expect(rules(compareReloads(prev, next))).toEqual(['segments-removed-from-end']);
  });

  it('flags a segment whose date changed between reloads', () => {
    const prev = playlist({ seq: 12, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] });
    const next = playlist({
      seq: 13,
      firstDateMs: T0 + 13 * 2000 + 500,
      segments: ['a/8.ts', 'a/9.ts', 'a/10.ts'],
    });
    expect(rules(compareReloads(prev, next))).toContain('pdt-changed');
  });
});

describe('live playlist rules on one reload', () => {
  it('accepts a well-formed live window', () => {
    expect(checkPlaylist(playlist({ seq: 3, segments: ['a/3.ts', 'a/4.ts', 'a/5.ts'] }))).toEqual([]);
  });

  it('flags an EXTINF that rounds above the target duration, and only that one', () => {
    const p = playlist({
      seq: 0,
      segments: ['a/0.ts', { uri: 'a/1.ts', duration: 2.49 }, { uri: 'a/2.ts', duration: 2.5 }, 'a/3.ts'],
    });
    const found = checkPlaylist(p);
    expect(rules(found)).toEqual(['extinf-exceeds-target']);
    expect(found[0]?.mediaSequence).toBe(2);
  });

  it('flags a first segment without EXT-X-PROGRAM-DATE-TIME', () => {
    const p = playlist({ seq: 0, segments: [{ uri: 'a/0.ts', date: null }, 'a/1.ts', 'a/2.ts'] });
    expect(rules(checkPlaylist(p))).toEqual(['pdt-missing']);
  });

  it('flags a date that disagrees with the EXTINFs before it', () => {
    const p = playlist({ seq: 0, segments: ['a/0.ts', 'a/1.ts', { uri: 'a/2.ts', date: T0 + 4500 }] });
    const found = checkPlaylist(p);
    expect(rules(found)).toEqual(['pdt-inconsistent']);
    expect(found[0]?.mediaSequence).toBe(2);
  });

  it('lets the date jump at a discontinuity only when told dates may', () => {
    const p = playlist({
      seq: 0,
      segments: ['a/0.ts', 'a/1.ts', { uri: 'b/0.ts', discontinuity: true, date: T0 + 60_000 }],
    });
    expect(rules(checkPlaylist(p))).toEqual(['pdt-inconsistent']);
    expect(checkPlaylist(p, { pdtContinuousAcrossDiscontinuity: false })).toEqual([]);
  });

  it('flags a window shorter than three target durations', () => {
    expect(rules(checkPlaylist(playlist({ seq: 0, segments: ['a/0.ts', 'a/1.ts'] })))).toEqual([
      'window-too-short',
    ]);
  });

  it('flags a live playlist that ends', () => {
    const p = playlist({ seq: 0, segments: ['a/0.ts', 'a/1.ts', 'a/2.ts'], endList: true });
    expect(rules(checkPlaylist(p))).toEqual(['endlist']);
  });

  it('flags the same segment twice in one window with no discontinuity between', () => {
    const p = playlist({ seq: 0, segments: ['a/0.ts', 'a/1.ts', 'a/0.ts'] });
    expect(rules(checkPlaylist(p))).toEqual(['segment-moved']);
  });
});

describe('checking a series of reloads', () => {
  it('reports a fault that persists over several reloads once, at the reload it first appeared', () => {
    const reloads = [
      playlist({ seq: 12, segments: ['a/7.ts', 'a/8.ts', 'a/9.ts'] }),
      playlist({ seq: 13, segments: ['a/8.ts', 'a/9.ts', { uri: 'a/10.ts', duration: 3 }] }),
      playlist({ seq: 14, segments: ['a/9.ts', { uri: 'a/10.ts', duration: 3 }, 'a/11.ts'] }),
    ];
    const found = checkReloads(reloads);
    expect(found.map((v) => [v.rule, v.reload, v.mediaSequence])).toEqual([['extinf-exceeds-target', 1, 15]]);
  });
});
