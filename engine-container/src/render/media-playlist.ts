/**
 * Renders a window as a live media playlist (RFC 8216 §6.2.1 rules): PDT on every segment,
 * EXT-X-DISCONTINUITY at every item boundary, EXT-X-KEY and EXT-X-MAP repeated when they change and
 * after every discontinuity (a player may join right there), explicit byte-range offsets.
 */
import type { SourceSegment } from '../hls/parse-media';
import type { PlayoutItem } from '../playout/item';
import type { PlaylistWindow, WindowSegment } from '../playout/window';
import { isoDate, seconds, segmentDecorations } from './segment-tags';

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
  for (let n = 0; n < segments.length; n++) {
    const s = segments[n]!;
    const seg = s.segment;
    if (s.discontinuity) out += '#EXT-X-DISCONTINUITY\n';
    const fresh = n === 0 || s.discontinuity;
    if (seg.keys !== keys || (fresh && seg.keys)) {
      if (seg.keys) out += `${seg.keys}\n`;
      else if (n > 0) out += '#EXT-X-KEY:METHOD=NONE\n';
    }
    if (seg.map && (fresh || seg.map !== map)) out += `${seg.map}\n`;
    keys = seg.keys;
    map = seg.map;
    out += `${segmentBlock(s)}\n`;
  }
  return out;
}
