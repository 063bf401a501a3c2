/**
 * A time-shifted window, pure: every segment of a rendition from the one on air at `fromMs` on, that has
 * ended by `nowMs` and started before `toMs`. Media sequence numbers, discontinuity sequence and PDTs
 * are the live playlists' own (the same log, the same item-range rules as window.ts), so a segment has
 * the same number and air time in both. O(items + segments of the range).
 */
import type { PlayoutItem } from '../playout/item';
import {
  cutsOf,
  discontinuitiesInItemBefore,
  endedAt,
  isDiscontinuity,
  isVoided,
  itemRange,
  segmentStartMs,
} from '../playout/item-range';
import {
  MissingVodError,
  type PlaylistWindow,
  type TrackResolver,
  type WindowSegment,
} from '../playout/window';

export interface TimeshiftWindow extends PlaylistWindow {
  /** Every segment that starts before `toMs` is listed (the playlist can end). */
  complete: boolean;
}

export function computeTimeshiftWindow(
  items: readonly PlayoutItem[],
  resolve: TrackResolver,
  key: string,
  fromMs: number,
  toMs: number,
  nowMs: number,
): TimeshiftWindow {
  const cuts = cutsOf(items);
  const segments: WindowSegment[] = [];
  let discontinuitySequence = 0;
  let previous: PlayoutItem | undefined;
  let complete = false;
  let nextChangeMs = Number.POSITIVE_INFINITY;
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    if (isVoided(item, cuts[k]!)) continue;
    if (item.startMs >= toMs) {
      complete = true;
      break;
    }
    if (item.startMs > nowMs) {
      nextChangeMs = Math.min(nextChangeMs, item.startMs);
      break;
    }
    const track = resolve(item, key);
    if (!track) throw new MissingVodError(item.uri);
    const range = itemRange(item, track, cuts[k]!);
    const ended = endedAt(item, range, nowMs);
    let waiting = false;
    for (let i = range.first; i < range.end; i++) {
      const pdtMs = segmentStartMs(item, range, i);
      const endMs = segmentStartMs(item, range, i + 1);
      if (pdtMs >= toMs) {
        complete = true;
        break;
      }
      if (endMs <= fromMs) continue;
      if (i >= ended) {
        waiting = true;
        nextChangeMs = Math.min(nextChangeMs, endMs);
        break;
      }
      if (segments.length === 0)
        discontinuitySequence =
          (item.discontinuitiesBefore[key] ?? 0) + discontinuitiesInItemBefore(item, range, i);
      const n = track.segments.length;
      segments.push({
        index: (item.segmentsBefore[key] ?? 0) + i - range.first,
        item,
        position: i - range.first,
        segment: track.segments[i % n]!,
        itemFirst: track.segments[range.first % n]!,
        durationMs: endMs - pdtMs,
        pdtMs,
        discontinuity: isDiscontinuity(item, range, i),
        previousItem: previous,
      });
    }
    if (waiting || complete) break;
    previous = item;
  }
  const last = items[items.length - 1];
  return {
    mediaSequence: segments[0]?.index ?? 0,
    discontinuitySequence,
    targetDurationS: last?.targetDurationS ?? 0,
    segments,
    nextChangeMs,
    complete,
  };
}
