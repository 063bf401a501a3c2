/**
 * Renders a window as a live media playlist (RFC 8216 §6.2.1 rules): PDT on every segment,
 * EXT-X-DISCONTINUITY at every item boundary, EXT-X-KEY and EXT-X-MAP repeated when they change and
 * after every discontinuity (a player may join right there), explicit byte-range offsets; a TS item
 * in a window that also lists fMP4 gets a map of its own PAT/PMT (ts-map.ts). A live rendition's
 * playlist is built from its last render's bytes where it can (live-playlist.ts) from these same parts.
 */
import type { PlaylistWindow, WindowSegment } from '../playout/window';
import { isoDate, seconds, segmentDecorations } from './segment-tags';
import { isTsSegment, tsMap } from './ts-map';

export const PLAYLIST_VERSION = 6;

export const playlistHeader = (win: PlaylistWindow): string =>
  `#EXTM3U\n#EXT-X-VERSION:${PLAYLIST_VERSION}\n#EXT-X-TARGETDURATION:${win.targetDurationS}\n` +
  `#EXT-X-MEDIA-SEQUENCE:${win.mediaSequence}\n#EXT-X-DISCONTINUITY-SEQUENCE:${win.discontinuitySequence}\n`;

/** How many of segments [from, to) are fMP4 (have a map of their own). */
export function fmp4Count(segments: readonly WindowSegment[], from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (segments[i]!.segment.map) n++;
  return n;
}

const mapOf = (s: WindowSegment, mixed: boolean): string | undefined =>
  s.segment.map ?? (mixed && isTsSegment(s.segment) ? tsMap(s.itemFirst) : undefined);

/**
 * The lines of segment n before its own (discontinuity, key, map): they depend on the segment before it
 * in the window and on whether the window lists fMP4 (`mixed`), nothing else.
 */
export function segmentLead(segments: readonly WindowSegment[], n: number, mixed: boolean): string {
  const s = segments[n]!;
  const seg = s.segment;
  const before = n > 0 ? segments[n - 1] : undefined;
  let out = s.discontinuity ? '#EXT-X-DISCONTINUITY\n' : '';
  const fresh = n === 0 || s.discontinuity;
  if (seg.keys !== before?.segment.keys || (fresh && seg.keys)) {
    if (seg.keys) out += `${seg.keys}\n`;
    else if (n > 0) out += '#EXT-X-KEY:METHOD=NONE\n';
  }
  const map = mapOf(s, mixed);
  if (map && (fresh || map !== (before && mapOf(before, mixed)))) out += `${map}\n`;
  return out;
}

/** A segment's own lines (date, decorations, EXTINF, byte range, URI): the same in every window listing it. */
export function segmentBlock(s: WindowSegment): string {
  const seg = s.segment;
  let text = `#EXT-X-PROGRAM-DATE-TIME:${isoDate(s.pdtMs)}\n`;
  for (const line of segmentDecorations(s)) text += `${line}\n`;
  if (seg.gap) text += '#EXT-X-GAP\n';
  text += `#EXTINF:${seconds(s.durationMs)},\n`;
  if (seg.byterange) text += `#EXT-X-BYTERANGE:${seg.byterange.length}@${seg.byterange.offset}\n`;
  return text + seg.uri;
}

/**
 * Segments `from`.. of the window as text, each its lead, block and a newline. With `starts`, where
 * segment n's lead and block begin (at 2n and 2n + 1), in characters, counted from `at`.
 */
export function segmentsText(
  segments: readonly WindowSegment[],
  from: number,
  mixed: boolean,
  at = 0,
  starts?: Uint32Array,
): string {
  let out = '';
  for (let n = from; n < segments.length; n++) {
    if (starts) starts[2 * n] = at + out.length;
    out += segmentLead(segments, n, mixed);
    if (starts) starts[2 * n + 1] = at + out.length;
    out += `${segmentBlock(segments[n]!)}\n`;
  }
  return out;
}

/**
 * The whole playlist; `starts` as for segmentsText. A window that lists fMP4 (`mixed`) gives its TS
 * items a map of their own (ts-map.ts); others stay as they were.
 */
export function renderMediaPlaylist(
  win: PlaylistWindow,
  starts?: Uint32Array,
  mixed = fmp4Count(win.segments, 0, win.segments.length) > 0,
): string {
  const header = playlistHeader(win);
  return header + segmentsText(win.segments, 0, mixed, header.length, starts);
}
