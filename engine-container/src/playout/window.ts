/**
 * The window function: a live media playlist is a pure function of (log, parsed VODs, rendition, now).
 * Visible segments are those that have ended by now (a prefix of the log, in index order); the window
 * is the last ~windowMs of them (never fewer than 3 when that many exist). A segment's media sequence
 * number is its global index in the rendition, so it keeps it forever; the discontinuity sequence
 * counts the tags before the first segment. Cost: O(items + window), never O(history).
 */
import type { SourceSegment } from '../hls/parse-media';
import type { PlayoutItem } from './item';
import { discontinuitiesInItemBefore, endedAt, isDiscontinuity, segmentStartMs } from './item-range';
import { playedItems, type TrackResolver } from './played-items';

export { MissingVodError, type TrackResolver } from './played-items';

export interface WindowSegment {
  /** Media sequence number. */
  index: number;
  item: PlayoutItem;
  /** Position inside the item (0 = its first segment). */
  position: number;
  segment: SourceSegment;
  /** The item's first segment on this rendition (a TS item's PAT/PMT, render/ts-map.ts). */
  itemFirst: SourceSegment;
  durationMs: number;
  /** EXT-X-PROGRAM-DATE-TIME, Unix ms. */
  pdtMs: number;
  discontinuity: boolean;
  /** The item before this segment's item (for cue-in after a preroll). */
  previousItem?: PlayoutItem;
}

export interface PlaylistWindow {
  mediaSequence: number;
  discontinuitySequence: number;
  targetDurationS: number;
  segments: WindowSegment[];
  /** Until this wall-clock time (exclusive) the window cannot change unless the log does. */
  nextChangeMs: number;
}

const MIN_SEGMENTS = 3;

export function computeWindow(
  items: readonly PlayoutItem[],
  resolve: TrackResolver,
  key: string,
  nowMs: number,
  windowMs: number,
): PlaylistWindow {
  const { played, count: started, nextStartMs, view } = playedItems(items, resolve, key, nowMs);
  const targetDurationS = items[items.length - 1]?.targetDurationS ?? 0;
  // Visible = the longest prefix of ended segments: stop at the first item not fully ended. An item
  // fully ended stays so as the clock moves on: the scan starts where the last one at an earlier clock
  // stopped (every entry before it has ended, and has segments).
  const from = nowMs >= view.liveAtMs ? view.liveFrom : 0;
  let live = from - 1;
  let visibleEnd = from > 0 ? played[from - 1]!.range.end : 0;
  let nextChangeMs = nextStartMs;
  let p = from;
  for (; p < started; p++) {
    const { item, range } = played[p]!;
    const ended = endedAt(item, range, nowMs);
    if (ended > range.first) {
      live = p;
      visibleEnd = ended;
    }
    if (ended < range.end) {
      nextChangeMs = segmentStartMs(item, range, ended + 1);
      break;
    }
  }
  view.liveAtMs = nowMs;
  view.liveFrom = p;
  // Back from the live edge: how many segments fit, and where the first of them is (no list built).
  let count = 0;
  let headP = -1;
  let headI = 0;
  let total = 0;
  for (let p = live, i = visibleEnd - 1; p >= 0; ) {
    const { item, range } = played[p]!;
    if (i < range.first) {
      p--;
      if (p >= 0) i = played[p]!.range.end - 1;
      continue;
    }
    const d = segmentStartMs(item, range, i + 1) - segmentStartMs(item, range, i);
    if (count >= MIN_SEGMENTS && total + d > windowMs) break;
    count++;
    headP = p;
    headI = i;
    total += d;
    i--;
  }
  // A segment is a pure function of the view and its place (p, i): the last window's objects are
  // listed again as they are (no garbage per segment per render, and the render sees them unchanged).
  const last = view.segments;
  const segments = new Array<WindowSegment>(count);
  for (let n = 0, p = headP, i = headI; n < count; n++, i++) {
    if (i >= played[p]!.range.end) {
      p++;
      i = played[p]!.range.first;
    }
    const { item, range, previous } = played[p]!;
    const index = (item.segmentsBefore[key] ?? 0) + i - range.first;
    const known = last.length > 0 ? last[index - last[0]!.index] : undefined;
    if (known && known.item === item && known.position === i - range.first) {
      segments[n] = known;
      continue;
    }
    const pdtMs = segmentStartMs(item, range, i);
    segments[n] = {
      index,
      item,
      position: i - range.first,
      segment: range.track.segments[i % range.track.segments.length]!,
      itemFirst: range.track.segments[range.first % range.track.segments.length]!,
      durationMs: segmentStartMs(item, range, i + 1) - pdtMs,
      pdtMs,
      discontinuity: isDiscontinuity(item, range, i),
      previousItem: previous,
    };
  }
  view.segments = segments;
  let discontinuitySequence = 0;
  if (count > 0) {
    const { item, range } = played[headP]!;
    discontinuitySequence =
      (item.discontinuitiesBefore[key] ?? 0) + discontinuitiesInItemBefore(item, range, headI);
  }
  return {
    mediaSequence: segments[0]?.index ?? 0,
    discontinuitySequence,
    targetDurationS,
    segments,
    nextChangeMs,
  };
}
