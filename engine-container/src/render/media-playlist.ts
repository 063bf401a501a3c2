/**
 * Renders a window as a live media playlist (RFC 8216 §6.2.1 rules): PDT on every segment,
 * EXT-X-DISCONTINUITY at every item boundary, EXT-X-KEY and EXT-X-MAP repeated when they change and
 * after every discontinuity (a player may join right there), explicit byte-range offsets; a TS item
 * in a window that also lists fMP4 gets a map of its own PAT/PMT (ts-map.ts).
 */
import type { SourceSegment } from '../hls/parse-media';
import type { PlayoutItem } from '../playout/item';
import type { PlaylistWindow, WindowSegment } from '../playout/window';
import { isoDate, seconds, segmentDecorations } from './segment-tags';
import { isTsSegment, tsMap } from './ts-map';

export const PLAYLIST_VERSION = 6;

/**
 * A segment's own lines (date, decorations, EXTINF, byte range, URI) never change, and a segment stays
 * in ~window/segment consecutive playlists: render them once per item. Dropped with the item. Looked
 * up by the source segment object (no key string built per request); a looping item plays one source
 * segment at several positions, chained.
 */
interface Block {
  position: number;
  text: string;
  other: Block | undefined;
}
const blocks = new WeakMap<PlayoutItem, Map<SourceSegment, Block>>();

function renderBlock(s: WindowSegment): string {
  const seg = s.segment;
  let text = `#EXT-X-PROGRAM-DATE-TIME:${isoDate(s.pdtMs)}\n`;
  for (const line of segmentDecorations(s)) text += `${line}\n`;
  if (seg.gap) text += '#EXT-X-GAP\n';
  text += `#EXTINF:${seconds(s.durationMs)},\n`;
  if (seg.byterange) text += `#EXT-X-BYTERANGE:${seg.byterange.length}@${seg.byterange.offset}\n`;
  return text + seg.uri;
}

function segmentBlock(s: WindowSegment): string {
  let perItem = blocks.get(s.item);
  if (!perItem) {
    perItem = new Map();
    blocks.set(s.item, perItem);
  }
  const first = perItem.get(s.segment);
  for (let b = first; b; b = b.other) if (b.position === s.position) return b.text;
  const text = renderBlock(s);
  perItem.set(s.segment, { position: s.position, text, other: first });
  return text;
}

export function renderMediaPlaylist(win: PlaylistWindow): string {
  let out =
    `#EXTM3U\n#EXT-X-VERSION:${PLAYLIST_VERSION}\n#EXT-X-TARGETDURATION:${win.targetDurationS}\n` +
    `#EXT-X-MEDIA-SEQUENCE:${win.mediaSequence}\n#EXT-X-DISCONTINUITY-SEQUENCE:${win.discontinuitySequence}\n`;
  let keys: string | undefined;
  let map: string | undefined;
  const segments = win.segments;
  // A window that lists fMP4 gives its TS items a map of their own (ts-map.ts); others stay as they were.
  const mixed = segments.some((s) => s.segment.map);
  for (let n = 0; n < segments.length; n++) {
    const s = segments[n]!;
    const seg = s.segment;
    if (s.discontinuity) out += '#EXT-X-DISCONTINUITY\n';
    const fresh = n === 0 || s.discontinuity;
    if (seg.keys !== keys || (fresh && seg.keys)) {
      if (seg.keys) out += `${seg.keys}\n`;
      else if (n > 0) out += '#EXT-X-KEY:METHOD=NONE\n';
    }
    const segMap = seg.map ?? (mixed && isTsSegment(seg) ? tsMap(s.itemFirst) : undefined);
    if (segMap && (fresh || segMap !== map)) out += `${segMap}\n`;
    keys = seg.keys;
    map = segMap;
    out += `${segmentBlock(s)}\n`;
  }
  return out;
}
