/**
 * A run of consecutive log items as one string: how the in-memory store keeps what start-over reads
 * (memory-log.ts). A string is one object the collector marks without looking inside, where an item
 * is three (itself, `segmentsBefore`, `discontinuitiesBefore`) with a pointer per field; at 10,000
 * channels a full retention is a million items.
 *
 * Each item after the first is written as what differs from the item its two predecessors predict:
 * the next seq, starting where the last one ends, its counts a step on (a loop's items each add the
 * same), all else alike. So a loop's next item is an empty line, `{}`. Items are plain JSON
 * (item.ts), so a round trip gives equal items.
 */
import type { PlayoutItem } from './item';

/** The key that lists the fields the item before had and this one has not (no item field is named so). */
const GONE = '-';

type Fields = Record<string, unknown>;
type Counts = Record<string, number>;

/** Every field an item may have: the compiler fails here when item.ts gains one. */
export const FIELDS = Object.keys({
  seq: 1,
  startMs: 1,
  kind: 1,
  id: 1,
  title: 1,
  uri: 1,
  offsetMs: 1,
  durationMs: 1,
  loop: 1,
  targetDurationS: 1,
  ladder: 1,
  segmentsBefore: 1,
  discontinuitiesBefore: 1,
  timedMetadata: 1,
  eventId: 1,
  reason: 1,
  live: 1,
  continues: 1,
  fullDurationMs: 1,
  resumes: 1,
  interstitial: 1,
} satisfies Record<keyof PlayoutItem, 1>) as Array<keyof PlayoutItem>;

/** The counts a step on from `prev`: the step from `older` to `prev` (none without `older`). */
function stepped(prev: Counts, older: Counts | undefined): Counts {
  const next: Counts = {};
  for (const key in prev) next[key] = 2 * prev[key]! - (older?.[key] ?? prev[key]!);
  return next;
}

/** Whether `counts` are `stepped(prev, older)`, without building it. */
function isStepped(counts: Counts, prev: Counts, older: Counts | undefined): boolean {
  const keys = Object.keys(counts);
  if (keys.length !== Object.keys(prev).length) return false;
  for (const key of keys) {
    const last = prev[key];
    if (last === undefined || counts[key] !== 2 * last - (older?.[key] ?? last)) return false;
  }
  return true;
}

/**
 * Whether `item` is what `prev` and `older` predict (a loop's next item): each field by name, which
 * costs a tenth of comparing them by a list of names, and packing compares every item of every channel.
 * Every field of FIELDS is compared (test/engine-ha/memory-log.test.ts changes each in turn).
 */
export function isPredicted(item: PlayoutItem, prev: PlayoutItem, older: PlayoutItem | undefined): boolean {
  return (
    item.seq === prev.seq + 1 &&
    item.startMs === prev.startMs + prev.durationMs &&
    item.kind === prev.kind &&
    item.id === prev.id &&
    item.title === prev.title &&
    item.uri === prev.uri &&
    item.offsetMs === prev.offsetMs &&
    item.durationMs === prev.durationMs &&
    item.loop === prev.loop &&
    item.targetDurationS === prev.targetDurationS &&
    item.ladder === prev.ladder &&
    item.timedMetadata === prev.timedMetadata &&
    item.eventId === prev.eventId &&
    item.reason === prev.reason &&
    item.live === prev.live &&
    item.continues === prev.continues &&
    item.fullDurationMs === prev.fullDurationMs &&
    item.resumes === prev.resumes &&
    item.interstitial === prev.interstitial &&
    isStepped(item.segmentsBefore, prev.segmentsBefore, older?.segmentsBefore) &&
    isStepped(item.discontinuitiesBefore, prev.discontinuitiesBefore, older?.discontinuitiesBefore)
  );
}

/** What `item` has that the prediction from `prev` and `older` has not (objects by identity), and what it lacks. */
function difference(item: PlayoutItem, prev: PlayoutItem, older: PlayoutItem | undefined): Fields {
  let diff: Fields = {};
  let gone: string[] | undefined;
  for (const key of FIELDS) {
    const value = item[key];
    let same: boolean;
    if (key === 'seq') same = value === prev.seq + 1;
    else if (key === 'startMs') same = value === prev.startMs + prev.durationMs;
    else if (key === 'segmentsBefore' || key === 'discontinuitiesBefore')
      same = isStepped(item[key], prev[key], older?.[key]);
    else same = value === prev[key];
    if (same) continue;
    if (value === undefined) gone = [...(gone ?? []), key];
    else diff = { ...diff, [key]: value };
  }
  return gone ? { ...diff, [GONE]: gone } : diff;
}

/**
 * One item's line in a run: the whole item when it is the run's first (no `prev`), else what differs
 * from what `prev` and `older` (the run's items before it) predict. The store writes each line as the
 * item is appended, while it and its predecessors are still in the processor's cache: written when the
 * run was full, the same lines cost ten times as much at 10,000 channels.
 */
export function packedLine(item: PlayoutItem, prev?: PlayoutItem, older?: PlayoutItem): string {
  if (!prev) return JSON.stringify(item);
  return isPredicted(item, prev, older) ? '{}' : JSON.stringify(difference(item, prev, older));
}

/** `items` (consecutive seqs, oldest first) as one string, one line each (what unpackItems reads). */
export const packItems = (items: readonly PlayoutItem[]): string =>
  items.map((item, k) => packedLine(item, items[k - 1], items[k - 2])).join('\n');

/** The items `packItems` wrote, frozen as the store's items are. */
export function unpackItems(text: string): PlayoutItem[] {
  const items: PlayoutItem[] = [];
  for (const line of text.split('\n')) {
    const prev = items[items.length - 1];
    const older = items[items.length - 2];
    const { [GONE]: gone, ...diff } = JSON.parse(line) as Fields;
    const item: Fields = prev
      ? {
          ...prev,
          seq: prev.seq + 1,
          startMs: prev.startMs + prev.durationMs,
          segmentsBefore: stepped(prev.segmentsBefore, older?.segmentsBefore),
          discontinuitiesBefore: stepped(prev.discontinuitiesBefore, older?.discontinuitiesBefore),
          ...diff,
        }
      : diff;
    for (const key of (gone as string[] | undefined) ?? []) delete item[key];
    items.push(Object.freeze(item) as unknown as PlayoutItem);
  }
  return items;
}
