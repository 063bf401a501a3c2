/** Pure helpers for keeping a log tail small and knowing what plays now. */
import { itemEndMs, type PlayoutItem } from './item';

/**
 * How far back a log tail keeps items: what a window (plus a margin of another window and three target
 * durations) can still show. An engine starting a channel reads back this far, and no further.
 */
export const tailHorizonMs = (nowMs: number, windowMs: number, targetDurationS: number): number =>
  nowMs - 2 * windowMs - 3 * targetDurationS * 1000;

/**
 * Index of the first item to keep: what a window (plus a margin of another window and three target
 * durations) can still show, and the item before it (a cue-in after a preroll looks back one item).
 * The last two items always stay: the next append counts from them.
 */
export function firstItemToKeep(items: readonly PlayoutItem[], nowMs: number, windowMs: number): number {
  if (items.length <= 2) return 0;
  const horizon = tailHorizonMs(nowMs, windowMs, items[items.length - 1]!.targetDurationS);
  const firstNeeded = items.findIndex((i) => itemEndMs(i) >= horizon);
  return Math.max(0, Math.min((firstNeeded < 0 ? items.length : firstNeeded) - 1, items.length - 2));
}

/**
 * The item playing at nowMs: the last one (in log order) that has started. An item voided by a later
 * cut is never it, because the cutting item started earlier and comes later in the log.
 */
export function liveItem(items: readonly PlayoutItem[], nowMs: number): PlayoutItem | undefined {
  for (let k = items.length - 1; k >= 0; k--) if (items[k]!.startMs <= nowMs) return items[k];
  return undefined;
}

/** Where the last schedule event the log plays ends (not voided by a later cut). */
export function eventsEndMs(items: readonly PlayoutItem[]): number {
  let later = Number.POSITIVE_INFINITY;
  for (let k = items.length - 1; k >= 0; k--) {
    const item = items[k]!;
    if (item.eventId && item.startMs < later) return Math.min(later, item.startMs + item.durationMs);
    later = Math.min(later, item.startMs);
  }
  return Number.NEGATIVE_INFINITY;
}

/** An item as channel events describe it. */
export function itemSummary(item: PlayoutItem): Record<string, unknown> {
  const { seq, kind, id, title, uri, startMs, durationMs, eventId, reason } = item;
  return { seq, kind, id, title, uri, startMs, durationMs, eventId, reason };
}
