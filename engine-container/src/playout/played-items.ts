/**
 * The items a rendition has played by now, with their ranges: what the window is computed from. A log
 * tail's items array is replaced whenever its items change (log-tail.ts), and between two changes every
 * request of a rendition asked the same question again (which items are voided, each item's track and
 * range). Remembered per items array and rendition instead, and extended as the clock passes the next
 * item's start: the answer is the same pure function of (items, tracks, now), computed once per log
 * version. An array changed in place (tests append to theirs) is seen by its length and last item.
 * The tracks found are kept with the array: a VOD swept from the cache meanwhile (the channel's upkeep
 * keeps its log's VODs in it) still renders from the parsed copy it was found as.
 */
import type { Track } from '../vod/track';
import type { PlayoutItem } from './item';
import { cutsOf, type ItemRange, isVoided, itemRange } from './item-range';
import type { WindowSegment } from './window';

/** The track an item plays for a rendition; undefined when its VOD is not loaded in this process. */
export type TrackResolver = (item: PlayoutItem, key: string) => Track | undefined;

export class MissingVodError extends Error {
  override name = 'MissingVodError';
  constructor(readonly uri: string) {
    super(`VOD ${uri} is not loaded`);
  }
}

export interface Played {
  item: PlayoutItem;
  range: ItemRange;
  /** The item started before this one (for cue-in after a preroll). */
  previous?: PlayoutItem;
}

/** The items of one array that a later item does not void, in order (their starts increase). */
interface LogView {
  length: number;
  last: PlayoutItem | undefined;
  items: PlayoutItem[];
  cuts: number[];
  byKey: Map<string, RenditionView>;
}

/** One rendition's view: its items resolved so far, and a hint where the live item was last found. */
export interface RenditionView {
  resolve: TrackResolver;
  /** Items (of LogView.items) resolved so far. */
  resolved: number;
  /** The resolved items with at least one segment. */
  played: Played[];
  /** playedBefore[k]: how many of `played` come from the first k items. */
  playedBefore: number[];
  /** From this clock on, the first not fully ended entry of `played` is at liveFrom or later. */
  liveAtMs: number;
  liveFrom: number;
  /** The segments of the last window computed from it: the next window lists most of them again. */
  segments: readonly WindowSegment[];
}

const views = new WeakMap<readonly PlayoutItem[], LogView>();

function logView(items: readonly PlayoutItem[]): LogView {
  const known = views.get(items);
  const last = items[items.length - 1];
  if (known && known.length === items.length && known.last === last) return known;
  const cuts = cutsOf(items);
  const view: LogView = { length: items.length, last, items: [], cuts: [], byKey: new Map() };
  for (let k = 0; k < items.length; k++) {
    if (isVoided(items[k]!, cuts[k]!)) continue;
    view.items.push(items[k]!);
    view.cuts.push(cuts[k]!);
  }
  views.set(items, view);
  return view;
}

export interface PlayedByNow {
  /** Its first `count` entries are the items played by now (the rest started later). */
  played: readonly Played[];
  count: number;
  /** When the next item starts (Infinity when none is logged). */
  nextStartMs: number;
  /** The rendition's view, for the live-item hint (window.ts). */
  view: RenditionView;
}

/** The items played on rendition `key` by nowMs; throws MissingVodError when a VOD is not loaded here. */
export function playedItems(
  items: readonly PlayoutItem[],
  resolve: TrackResolver,
  key: string,
  nowMs: number,
): PlayedByNow {
  const log = logView(items);
  let view = log.byKey.get(key);
  if (!view || view.resolve !== resolve) {
    view = {
      resolve,
      resolved: 0,
      played: [],
      playedBefore: [0],
      liveAtMs: Number.POSITIVE_INFINITY,
      liveFrom: 0,
      segments: [],
    };
    log.byKey.set(key, view);
  }
  // The items started by now: their starts increase, so a prefix.
  let started = log.items.length;
  for (let k = 0; k < log.items.length; k++) {
    if (log.items[k]!.startMs > nowMs) {
      started = k;
      break;
    }
  }
  for (let k = view.resolved; k < started; k++) {
    const item = log.items[k]!;
    const track = resolve(item, key);
    if (!track) throw new MissingVodError(item.uri);
    const range = itemRange(item, track, log.cuts[k]!);
    if (range.end > range.first) view.played.push({ item, range, previous: log.items[k - 1] });
    view.playedBefore.push(view.played.length);
    view.resolved = k + 1;
  }
  return {
    played: view.played,
    count: view.playedBefore[started]!,
    nextStartMs: started < log.items.length ? log.items[started]!.startMs : Number.POSITIVE_INFINITY,
    view,
  };
}
