/**
 * The one byte range of a `Range` header a file server answers with 206 (RFC 9110 §14): `bytes=a-b`,
 * `bytes=a-` or `bytes=-n`. Anything else (another unit, several ranges, nonsense) is ignored and the
 * file answered whole, as the RFC allows; a range that starts past the end cannot be satisfied (416).
 * Players ask for ranges of media files: an `EXT-X-MAP` or `EXT-X-BYTERANGE` answered whole is parsed
 * as the whole file (hls.js then buffers a TS segment's audio twice).
 */
export type ByteRange = { start: number; end: number } | 'unsatisfiable';

export function byteRange(header: string | undefined, size: number): ByteRange | undefined {
  const m = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? Number.POSITIVE_INFINITY : Number(m[2]);
  if (end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}
