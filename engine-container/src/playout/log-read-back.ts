/**
 * Reads a channel's log back in pages, from the oldest item read to one that ended by a bound: what an
 * engine starting a channel reads (channel/log-tail.ts: back to the first item its live window can
 * show) and what start-over reads (timeshift/channel-history.ts: back to a request's start). Pages are
 * sized from the mean length of the oldest items read (the nearest to those wanted: a channel's item
 * lengths drift), so a bound a day back over 30-minute items is one small read, not the day's log.
 */
import { itemEndMs, type PlayoutItem } from './item';
import type { PlayoutLogStore } from './log-store';

/** The fewest and most items one page reads back. */
export const PAGE_MIN_ITEMS = 16;
export const PAGE_MAX_ITEMS = 2000;

export interface ReadBack {
  /** Consecutive seqs, oldest first: those given, after the older ones read. */
  items: PlayoutItem[];
  /** The store holds nothing older than items[0] (seq 0, or expired). */
  floor: boolean;
}

/** Pages back from `items` (consecutive seqs, oldest first) until items[0] ended by `untilMs`. */
export async function readBack(
  store: PlayoutLogStore,
  channelId: string,
  items: PlayoutItem[],
  untilMs: number,
): Promise<ReadBack> {
  let floor = false;
  while (!floor && items.length > 0 && itemEndMs(items[0]!) > untilMs) {
    const first = items[0]!;
    if (first.seq === 0) return { items, floor: true };
    const near = Math.min(items.length, PAGE_MIN_ITEMS);
    const meanMs = (itemEndMs(items[near - 1]!) - first.startMs) / near;
    const wanted = Math.ceil((first.startMs - untilMs) / Math.max(meanMs, 1)) + 2;
    const size = Math.min(PAGE_MAX_ITEMS, Math.max(PAGE_MIN_ITEMS, wanted));
    const fromSeq = Math.max(0, first.seq - size);
    const page = (await store.read(channelId, fromSeq, first.seq)).filter(
      (i) => i.seq >= fromSeq && i.seq < first.seq,
    );
    // Only the items that join on: an expired stretch ends what the store can give.
    let join = page.length;
    while (join > 0 && page[join - 1]!.seq === first.seq - (page.length - join) - 1) join--;
    const joined = page.slice(join);
    if (joined.length === 0 || join > 0 || joined[0]!.seq > fromSeq) floor = true;
    items = joined.concat(items);
  }
  return { items, floor };
}
