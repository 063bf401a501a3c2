/**
 * The auto-scheduler's filling algorithm, pure: given where the schedule ends, the feed's items and
 * the clock, the entries that extend it to the horizon. Everything with I/O lives elsewhere.
 */
import type { FeedItem, ScheduleCursor, ScheduleEntry } from '../model';

export interface PlanInput {
  channelId: string;
  /** Where the channel's schedule ends now; undefined when it was never filled. */
  cursor: ScheduleCursor | undefined;
  /** The feed's items in feed order; each must have durationMs > 0. */
  items: readonly FeedItem[];
  nowMs: number;
  horizonMs: number;
  /** Upper bound of entries in one plan, so a feed of tiny VODs cannot run away. */
  maxEntries?: number;
  newId: () => string;
  /** Manual entries (POST /channels/{id}/schedule): the plan goes around them, never over them. */
  manual?: ReadonlyArray<Pick<ScheduleEntry, 'start_time' | 'end_time'>>;
}

/** A new entry with the cursor as it stands once that entry is written. */
export interface PlannedEntry {
  entry: ScheduleEntry;
  cursor: ScheduleCursor;
}

export interface Plan {
  planned: PlannedEntry[];
  /** The cursor after these entries (the input cursor when nothing was planned). */
  cursor: ScheduleCursor | undefined;
}

export const DEFAULT_MAX_ENTRIES_PER_PLAN = 5000;

/**
 * A schedule that is empty or ended in the past restarts at now floored to the whole second (never
 * before the end of the last entry): the first entry is then already playing, by less than a second,
 * rather than leaving a slate gap.
 */
export function restartTime(nowMs: number): number {
  return Math.floor(nowMs / 1000) * 1000;
}

/**
 * The index of the item to play after the cursor: the one after the last scheduled item (found by
 * its id, so reordering the feed keeps the rotation), else after its old index, else the first.
 */
export function nextItemIndex(cursor: ScheduleCursor | undefined, items: readonly FeedItem[]): number {
  if (!cursor || items.length === 0) return 0;
  const found = items.findIndex((item) => item.id === cursor.lastItemId);
  const last = found >= 0 ? found : cursor.lastItemIndex;
  return (last + 1) % items.length;
}

export function toEntry(channelId: string, item: FeedItem, startMs: number, id: string): ScheduleEntry {
  const endMs = startMs + item.durationMs;
  return {
    id,
    channelId,
    title: item.title,
    start_time: startMs,
    end_time: endMs,
    start: new Date(startMs).toISOString(),
    end: new Date(endMs).toISOString(),
    url: item.url,
    duration: (endMs - startMs) / 1000,
    type: 'VOD',
  };
}

/**
 * Entries are consecutive (each starts where the previous ends, or where a manual entry it would
 * overlap ends), in feed order, round robin, until the schedule reaches now + horizon (the last entry
 * may end beyond it).
 */
export function planSchedule(input: PlanInput): Plan {
  const { channelId, cursor, nowMs, horizonMs, newId } = input;
  const items = input.items.filter((item) => Number.isInteger(item.durationMs) && item.durationMs > 0);
  const maxEntries = input.maxEntries ?? DEFAULT_MAX_ENTRIES_PER_PLAN;
  if (items.length === 0) return { planned: [], cursor };

  const horizonEnd = nowMs + horizonMs;
  // Continuing from the cursor when it is later than the restart time also covers a schedule that
  // ended less than a second ago: the new entry must not overlap the last one.
  let start = Math.max(cursor?.endTime ?? 0, restartTime(nowMs));
  let index = nextItemIndex(cursor, items);
  const planned: PlannedEntry[] = [];
  while (start < horizonEnd && planned.length < maxEntries) {
    const item = items[index]!;
    const end = start + item.durationMs;
    const clash = input.manual?.find((m) => m.start_time < end && m.end_time > start);
    if (clash) {
      start = clash.end_time;
      continue;
    }
    const entry = toEntry(channelId, item, start, newId());
    planned.push({ entry, cursor: { endTime: entry.end_time, lastItemId: item.id, lastItemIndex: index } });
    start = entry.end_time;
    index = (index + 1) % items.length;
  }
  return { planned, cursor: planned.at(-1)?.cursor ?? cursor };
}
