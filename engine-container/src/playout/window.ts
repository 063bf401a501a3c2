/**
 * The window function: a live media playlist is a pure function of (log, parsed VODs, rendition, now).
 * Visible segments are those that have ended by now (a prefix of the log, in index order); the window
 * is the last ~windowMs of them (never fewer than 3 when that many exist). A segment's media sequence
 * number is its global index in the rendition, so it keeps it forever; the discontinuity sequence
 * counts the tags before the first segment. Cost: O(items + window), never O(history).
 */
import type { SourceSegment } from '../hls/parse-media';
import type { Track } from '../vod/track';
import type { PlayoutItem } from './item';
import {
  cutsOf,
  discontinuitiesInItemBefore,
  endedAt,
  type ItemRange,
  isDiscontinuity,
  isVoided,
  itemRange,
  segmentStartMs,
} from './item-range';

/** The track an item plays for a rendition; undefined when its VOD is not loaded in this process. */
export type TrackResolver = (item: PlayoutItem, key: string) => Track | undefined;

export class MissingVodError extends Error {
  override name = 'MissingVodError';
  constructor(readonly uri: string) {
    super(`VOD ${uri} is not loaded`);
  }
}

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

interface Played {
  item: PlayoutItem;
  range: ItemRange;
  previous?: PlayoutItem;
}

/**
 * An item's range is a pure function of (item, track, cut) and every request of every rendition needs
 * it for each item of the tail: remembered per item and track while the cut stays the same.
 */
const ranges = new WeakMap<PlayoutItem, Map<Track, { cut: number; range: ItemRange }>>();

function rangeOf(item: PlayoutItem, track: Track, cut: number): ItemRange {
  let perItem = ranges.get(item);
  if (!perItem) {
    perItem = new Map();
    ranges.set(item, perItem);
  }
  const known = perItem.get(track);
  if (known && known.cut === cut) return known.range;
  const range = itemRange(item, track, cut);
  perItem.set(track, { cut, range });
  return range;
}

function playedItems(
  items: readonly PlayoutItem[],
  resolve: TrackResolver,
  key: string,
  nowMs: number,
): { played: Played[]; nextStartMs: number } {
  const cuts = cutsOf(items);
  const out: Played[] = [];
  let previous: PlayoutItem | undefined;
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    if (isVoided(item, cuts[k]!)) continue;
    if (item.startMs > nowMs) return { played: out, nextStartMs: item.startMs };
    const track = resolve(item, key);
    if (!track) throw new MissingVodError(item.uri);
    const range = rangeOf(item, track, cuts[k]!);
    if (range.end > range.first) out.push({ item, range, previous });
    previous = item;
  }
  return { played: out, nextStartMs: Number.POSITIVE_INFINITY };
}

export function computeWindow(
  items: readonly PlayoutItem[],
  resolve: TrackResolver,
  key: string,
  nowMs: number,
  windowMs: number,
): PlaylistWindow {
  const { played, nextStartMs } = playedItems(items, resolve, key, nowMs);
  const targetDurationS = items[items.length - 1]?.targetDurationS ?? 0;
  // Visible = the longest prefix of ended segments: stop at the first item not fully ended.
  let live = -1;
  let visibleEnd = 0;
  let nextChangeMs = nextStartMs;
  for (let p = 0; p < played.length; p++) {
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
  const picked: Array<{ p: number; i: number }> = [];
  let total = 0;
  for (let p = live, i = visibleEnd - 1; p >= 0; ) {
    const { item, range } = played[p]!;
    if (i < range.first) {
      p--;
      if (p >= 0) i = played[p]!.range.end - 1;
      continue;
    }
    const d = segmentStartMs(item, range, i + 1) - segmentStartMs(item, range, i);
    if (picked.length >= MIN_SEGMENTS && total + d > windowMs) break;
    picked.push({ p, i });
    total += d;
    i--;
  }
  picked.reverse();
  const segments = picked.map(({ p, i }) => {
    const { item, range, previous } = played[p]!;
    const pdtMs = segmentStartMs(item, range, i);
    return {
      index: (item.segmentsBefore[key] ?? 0) + i - range.first,
      item,
      position: i - range.first,
      segment: range.track.segments[i % range.track.segments.length]!,
      itemFirst: range.track.segments[range.first % range.track.segments.length]!,
      durationMs: segmentStartMs(item, range, i + 1) - pdtMs,
      pdtMs,
      discontinuity: isDiscontinuity(item, range, i),
      previousItem: previous,
    };
  });
  const head = picked[0];
  let discontinuitySequence = 0;
  if (head) {
    const { item, range } = played[head.p]!;
    discontinuitySequence =
      (item.discontinuitiesBefore[key] ?? 0) + discontinuitiesInItemBefore(item, range, head.i);
  }
  return {
    mediaSequence: segments[0]?.index ?? 0,
    discontinuitySequence,
    targetDurationS,
    segments,
    nextChangeMs,
  };
}
