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
 * in ~window/segment consecutive playlists: a rendition's next render reuses the blocks of its last one.
 * Only the last render's blocks are kept, so what is held is bounded by the window (not by how long an
 * item or the log lives: the log may keep a day of items for start-over). Looked up by the source
 * segment object (no key string built per request); a looping item, or the next item of the same VOD,
 * plays one source segment at several positions, chained.
 */
interface Block {
  item: PlayoutItem;
  position: number;
  text: string;
  other: Block | undefined;
}

export class SegmentBlocks {
  private last = new Map<SourceSegment, Block>();
  private next = new Map<SourceSegment, Block>();

  text(s: WindowSegment): string {
    let text: string | undefined;
    for (let b = this.last.get(s.segment); b; b = b.other)
      if (b.item === s.item && b.position === s.position) {
        text = b.text;
        break;
      }
    text ??= renderBlock(s);
    this.next.set(s.segment, { item: s.item, position: s.position, text, other: this.next.get(s.segment) });
    return text;
  }

  /** Blocks held: the segments of the last render. */
  get held(): number {
    let n = 0;
    for (let b of this.last.values()) for (; b; b = b.other!) n++;
    return n;
  }

  /** The render is done: its blocks are the ones the next render may reuse. */
  rendered(): void {
    const spare = this.last;
    spare.clear();
    this.last = this.next;
    this.next = spare;
  }
}

function renderBlock(s: WindowSegment): string {
  const seg = s.segment;
  let text = `#EXT-X-PROGRAM-DATE-TIME:${isoDate(s.pdtMs)}\n`;
  for (const line of segmentDecorations(s)) text += `${line}\n`;
  if (seg.gap) text += '#EXT-X-GAP\n';
  text += `#EXTINF:${seconds(s.durationMs)},\n`;
  if (seg.byterange) text += `#EXT-X-BYTERANGE:${seg.byterange.length}@${seg.byterange.offset}\n`;
  return text + seg.uri;
}

/** `blocks`: the rendition's blocks from its last render (live playlists); without, every block is rendered. */
export function renderMediaPlaylist(win: PlaylistWindow, blocks?: SegmentBlocks): string {
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
    out += `${blocks ? blocks.text(s) : renderBlock(s)}\n`;
  }
  blocks?.rendered();
  return out;
}
