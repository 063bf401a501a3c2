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
 * in ~window/segment consecutive playlists: a rendition's next render reuses the blocks of its last one,
 * as slices of the last body (shared bytes: nothing is held but that body and where each block is in it).
 * Only the last render is kept, so what is held is bounded by the window, not by how long an item or the
 * log lives (the log may keep a day of items for start-over). Looked up by the source segment object (no
 * key string built per request); a looping item, or the next item of the same VOD, plays one source
 * segment at several positions, chained.
 */
interface Span {
  item: PlayoutItem;
  position: number;
  start: number;
  end: number;
  other: Span | undefined;
}

export class SegmentBlocks {
  private body = '';
  private last = new Map<SourceSegment, Span>();
  private next = new Map<SourceSegment, Span>();

  /** The segment's block: from the last body when it was listed there. */
  text(s: WindowSegment): string {
    for (let b = this.last.get(s.segment); b; b = b.other)
      if (b.item === s.item && b.position === s.position) return this.body.slice(b.start, b.end);
    return renderBlock(s);
  }

  /** Where the segment's block is in the body being rendered. */
  placed(s: WindowSegment, start: number, end: number): void {
    const other = this.next.get(s.segment);
    this.next.set(s.segment, { item: s.item, position: s.position, start, end, other });
  }

  /** The render is done: its body and blocks are the ones the next render may reuse. */
  rendered(body: string): void {
    this.body = body;
    const spare = this.last;
    spare.clear();
    this.last = this.next;
    this.next = spare;
  }

  /** Blocks held: the segments of the last render. */
  get held(): number {
    let n = 0;
    for (let b of this.last.values()) for (; b; b = b.other!) n++;
    return n;
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
    if (blocks) {
      const start = out.length;
      out += blocks.text(s);
      blocks.placed(s, start, out.length);
      out += '\n';
    } else out += `${renderBlock(s)}\n`;
  }
  blocks?.rendered(out);
  return out;
}
