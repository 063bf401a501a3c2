/**
 * Renders a window as a live media playlist (RFC 8216 §6.2.1 rules): PDT on every segment,
 * EXT-X-DISCONTINUITY at every item boundary, EXT-X-KEY and EXT-X-MAP repeated when they change and
 * after every discontinuity (a player may join right there), explicit byte-range offsets.
 */
import type { PlayoutItem } from '../playout/item';
import type { PlaylistWindow, WindowSegment } from '../playout/window';
import { isoDate, seconds, segmentDecorations } from './segment-tags';

export const PLAYLIST_VERSION = 6;

/**
 * A segment's own lines (date, decorations, EXTINF, byte range, URI) never change, and a segment stays
 * in ~window/segment consecutive playlists: render them once per item. Dropped with the item.
 */
const blocks = new WeakMap<PlayoutItem, Map<string, string>>();

function segmentBlock(s: WindowSegment): string {
  let perItem = blocks.get(s.item);
  if (!perItem) {
    perItem = new Map();
    blocks.set(s.item, perItem);
  }
  const key = `${s.position}|${s.segment.uri}`;
  let block = perItem.get(key);
  if (block === undefined) {
    const seg = s.segment;
    const lines = [`#EXT-X-PROGRAM-DATE-TIME:${isoDate(s.pdtMs)}`, ...segmentDecorations(s)];
    if (seg.gap) lines.push('#EXT-X-GAP');
    lines.push(`#EXTINF:${seconds(s.durationMs)},`);
    if (seg.byterange) lines.push(`#EXT-X-BYTERANGE:${seg.byterange.length}@${seg.byterange.offset}`);
    lines.push(seg.uri);
    block = lines.join('\n');
    perItem.set(key, block);
  }
  return block;
}

export function renderMediaPlaylist(win: PlaylistWindow): string {
  const lines = [
    '#EXTM3U',
    `#EXT-X-VERSION:${PLAYLIST_VERSION}`,
    `#EXT-X-TARGETDURATION:${win.targetDurationS}`,
    `#EXT-X-MEDIA-SEQUENCE:${win.mediaSequence}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${win.discontinuitySequence}`,
  ];
  let keys: string | undefined;
  let map: string | undefined;
  win.segments.forEach((s, n) => {
    const seg = s.segment;
    if (s.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    const fresh = n === 0 || s.discontinuity;
    if (seg.keys !== keys || (fresh && seg.keys)) {
      if (seg.keys) lines.push(seg.keys);
      else if (n > 0) lines.push('#EXT-X-KEY:METHOD=NONE');
    }
    if (seg.map && (fresh || seg.map !== map)) lines.push(seg.map);
    keys = seg.keys;
    map = seg.map;
    lines.push(segmentBlock(s));
  });
  return `${lines.join('\n')}\n`;
}
