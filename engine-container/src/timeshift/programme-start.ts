/**
 * Where the programme on air at an instant started (`?start=…&from=programme`, docs/timeshift.md),
 * from the playout log's item boundaries, as the as-run log reports them (asrun/build-asrun.ts): the
 * item that aired at that instant (an item voided by a later cut never aired), and for a LIVE event
 * (one item per poll of its source) the moment the channel switched to it. Pure.
 */
import { itemEndMs, type PlayoutItem } from '../playout/item';
import { cutsOf, isVoided } from '../playout/item-range';

/** The start of the programme on air at `atMs`, or undefined when `items` hold nothing aired then. */
export function programmeStartMs(items: readonly PlayoutItem[], atMs: number): number | undefined {
  const cuts = cutsOf(items);
  for (let k = items.length - 1; k >= 0; k--) {
    const item = items[k]!;
    if (isVoided(item, cuts[k]!) || item.startMs > atMs) continue;
    if (Math.min(itemEndMs(item), cuts[k]!) <= atMs) return undefined;
    if (item.kind !== 'live') return item.startMs;
    return item.live?.inMs ?? liveEventStartMs(items, k);
  }
  return undefined;
}

/** The first of the live items before k that play the same event back to back (an old item without `inMs`). */
function liveEventStartMs(items: readonly PlayoutItem[], k: number): number {
  let first = items[k]!;
  for (let j = k - 1; j >= 0; j--) {
    const item = items[j]!;
    if (item.kind !== 'live' || item.eventId !== first.eventId || itemEndMs(item) !== first.startMs) break;
    first = item;
  }
  return first.startMs;
}
