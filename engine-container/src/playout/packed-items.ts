/**
 * A run of consecutive log items as one string: what the in-memory store keeps for start-over once
 * no channel reads an item any more (memory-log.ts). A string is one object the collector marks
 * without looking inside, where an item is three (itself, `segmentsBefore`, `discontinuitiesBefore`)
 * with a pointer per field; at 10,000 channels a full retention is a million items, and marking them
 * made each mark-compact of an idle engine three times longer (docs/benchmarks.md, fifteenth pass).
 *
 * Each item after the first is written as what differs from the item predicted from the two before
 * it (the next seq, starting where the last ends, its counts a step on, all else alike), so a loop's
 * next item is an empty line: `{}`.
 * Items are plain JSON (item.ts), so a round trip gives equal items.
 */
import type { PlayoutItem } from './item';

/** The key that lists the fields the item before had and this one has not (no item field is named so). */
const GONE = '-';

type Fields = Record<string, unknown>;
type Counts = Record<string, number>;

/** The per-rendition counts: a loop's next item has the counts of the step before it. */
const COUNTS = ['segmentsBefore', 'discontinuitiesBefore'] as const;
const isCount = (key: string): key is (typeof COUNTS)[number] => (COUNTS as readonly string[]).includes(key);

/** The counts that keep to the step between `older` and `newer` (a loop's items each add the same). */
function extrapolated(older: Counts, newer: Counts): Counts {
  const next: Counts = {};
  for (const key of Object.keys(newer)) next[key] = 2 * newer[key]! - (older[key] ?? newer[key]!);
  return next;
}

const sameCounts = (a: Counts, b: unknown): boolean => {
  const other = b as Counts;
  const keys = Object.keys(a);
  return keys.length === Object.keys(other).length && keys.every((key) => a[key] === other[key]);
};

/** The item that would follow `prev` (and `older`, before it): the next seq, from where it ends, the same step in its counts. */
function predicted(prev: PlayoutItem, older: PlayoutItem | undefined): Fields {
  return {
    ...prev,
    seq: prev.seq + 1,
    startMs: prev.startMs + prev.durationMs,
    ...Object.fromEntries(
      COUNTS.map((key) => [key, older ? extrapolated(older[key], prev[key]) : prev[key]]),
    ),
  };
}

/** What `item` has that `guess` has not (counts compared by value, other objects by identity), and what it lacks. */
function difference(guess: Fields, item: PlayoutItem): Fields {
  const fields = item as unknown as Fields;
  const diff: Fields = {};
  for (const key of Object.keys(fields)) {
    const same = isCount(key) ? sameCounts(item[key], guess[key]) : fields[key] === guess[key];
    if (!same) diff[key] = fields[key];
  }
  const gone = Object.keys(guess).filter((key) => !(key in fields));
  if (gone.length > 0) diff[GONE] = gone;
  return diff;
}

/** `items` (consecutive seqs, oldest first) as one string, one line each. */
export function packItems(items: readonly PlayoutItem[]): string {
  return items
    .map((item, k) =>
      JSON.stringify(k === 0 ? item : difference(predicted(items[k - 1]!, items[k - 2]), item)),
    )
    .join('\n');
}

/** The items `packItems` wrote, frozen as the store's items are. */
export function unpackItems(text: string): PlayoutItem[] {
  const items: PlayoutItem[] = [];
  for (const line of text.split('\n')) {
    const prev = items[items.length - 1];
    const { [GONE]: gone, ...diff } = JSON.parse(line) as Fields;
    const item: Fields = prev ? { ...predicted(prev, items[items.length - 2]), ...diff } : diff;
    for (const key of (gone as string[] | undefined) ?? []) delete item[key];
    items.push(Object.freeze(item) as unknown as PlayoutItem);
  }
  return items;
}
