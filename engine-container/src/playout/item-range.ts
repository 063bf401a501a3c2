/**
 * Which segments of a track an item plays. An item plays the reference timeline from offsetMs for
 * durationMs; every other rendition plays its own segments that start inside that span, timed from
 * the item's start by their own cumulative EXTINF (so renditions share the clock, not boundaries);
 * one that straddles offsetMs plays when most of it is after it.
 * A later item that starts before this one ends (a reset, a live cut-in) cuts it, always on a reference
 * boundary (append.ts cutBoundaryMs). At the end and at a cut alike, a segment that straddles it plays
 * when most of it is before it: a rendition whose boundaries are not the reference's (AAC audio a few
 * ms off the video's) ends within half a segment of the others, neither leaving a hole of a whole
 * segment nor overlapping the next item by one. Both the window and the log's counts use exactly this rule.
 */
import {
  discontinuitiesBefore,
  firstStartingAtOrAfter,
  indexBoundFor,
  startAt,
  type Track,
} from '../vod/track';
import type { PlayoutItem } from './item';

export interface ItemRange {
  track: Track;
  /** First endless-timeline index played. */
  first: number;
  /** One past the last index played. */
  end: number;
  /** Timeline position of `first`: segment i plays at item.startMs + startAt(i) - baseMs. */
  baseMs: number;
}

export function itemRange(item: PlayoutItem, track: Track, cutMs = Number.POSITIVE_INFINITY): ItemRange {
  const loop = item.loop === 1;
  const from = item.offsetMs;
  const to = item.offsetMs + item.durationMs;
  const first = startNear(track, from, indexBoundFor(track, from, loop));
  let end = Math.max(first, endNear(track, to, first, indexBoundFor(track, to, loop)));
  const baseMs = startAt(track, first);
  if (cutMs < item.startMs + item.durationMs) end = endNear(track, baseMs + cutMs - item.startMs, first, end);
  return { track, first, end, baseMs };
}

/**
 * The first index in [0, hi) that starts at or after from, or the one before it when that one straddles
 * from and is mostly after it: an item that starts mid-VOD (resumed after a LIVE event) plays the AAC
 * segment that starts a millisecond before the video's, not a hole of a whole segment.
 */
function startNear(track: Track, from: number, hi: number): number {
  const first = firstStartingAtOrAfter(track, from, 0, hi);
  if (first === 0) return first;
  const straddling = startAt(track, first - 1);
  return straddling < from && straddling + (startAt(track, first) - straddling) / 2 > from
    ? first - 1
    : first;
}

/** One past the last index in [first, hi) that starts before limit, less one that is mostly after it. */
function endNear(track: Track, limit: number, first: number, hi: number): number {
  const end = firstStartingAtOrAfter(track, limit, first, hi);
  if (end - 1 <= first) return end;
  const straddling = startAt(track, end - 1);
  return straddling + (startAt(track, end) - straddling) / 2 >= limit ? end - 1 : end;
}

/** One past the last index in [first, end) whose segment ends at or before timeline position limit. */
function endedBy(track: Track, first: number, end: number, limit: number): number {
  if (limit < startAt(track, first)) return first;
  return Math.max(first, firstStartingAtOrAfter(track, limit + 1, first + 1, end + 1) - 1);
}

/** One past the last segment of the range that has ended at wall-clock nowMs. */
export function endedAt(item: PlayoutItem, range: ItemRange, nowMs: number): number {
  return Math.min(
    range.end,
    endedBy(range.track, range.first, range.end, range.baseMs + nowMs - item.startMs),
  );
}

/** Wall-clock start of endless index i of the range. */
export const segmentStartMs = (item: PlayoutItem, range: ItemRange, i: number): number =>
  item.startMs + startAt(range.track, i) - range.baseMs;

/** Does the item's first segment carry EXT-X-DISCONTINUITY? Yes, except the log's first and a continuation. */
const startsWithDiscontinuity = (item: PlayoutItem): boolean => item.seq > 0 && item.continues !== 1;

/** Does position i carry EXT-X-DISCONTINUITY? The item's first segment does (startsWithDiscontinuity). */
export function isDiscontinuity(item: PlayoutItem, range: ItemRange, i: number): boolean {
  if (i === range.first) return startsWithDiscontinuity(item);
  const n = range.track.segments.length;
  return (i % n === 0 && i > 0) || range.track.segments[i % n]!.discontinuity;
}

/** Discontinuity tags on positions [range.first, i) of the item. */
export function discontinuitiesInItemBefore(item: PlayoutItem, range: ItemRange, i: number): number {
  if (i <= range.first) return 0;
  const boundary = startsWithDiscontinuity(item) ? 1 : 0;
  return (
    boundary + discontinuitiesBefore(range.track, i) - discontinuitiesBefore(range.track, range.first + 1)
  );
}

/** Earliest start among later items, per item: where each item is cut (Infinity when it is not). */
export function cutsOf(items: readonly PlayoutItem[]): number[] {
  const cuts = new Array<number>(items.length);
  let later = Number.POSITIVE_INFINITY;
  for (let k = items.length - 1; k >= 0; k--) {
    cuts[k] = later;
    later = Math.min(later, items[k]!.startMs);
  }
  return cuts;
}

export const isVoided = (item: PlayoutItem, cutMs: number): boolean => cutMs <= item.startMs;
