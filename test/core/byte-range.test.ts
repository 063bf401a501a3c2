import { describe, expect, it } from 'vitest';
import { byteRange } from '../../core/files/byte-range';

describe('the byte range a file server answers', () => {
  it('reads a closed, an open and a suffix range, clamped to the file', () => {
    expect(byteRange('bytes=0-375', 13_724)).toEqual({ start: 0, end: 375 });
    expect(byteRange('bytes=100-', 1000)).toEqual({ start: 100, end: 999 });
    expect(byteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('cannot satisfy a range that starts at or past the end, or an empty suffix', () => {
    expect(byteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(byteRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });

  it('ignores what is not one byte range (the file is then answered whole)', () => {
    for (const header of [
      undefined,
      '',
      'bytes=',
      'bytes=-',
      'bytes=5-2',
      'bytes=0-1,4-8',
      'items=0-1',
      'bytes=a-b',
    ])
      expect(byteRange(header, 1000), String(header)).toBeUndefined();
  });
});
