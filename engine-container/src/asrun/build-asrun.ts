/**
 * A channel's as-run log from its playout log, pure: what aired, from when to when. Every engine reads
 * the same shared log, so every engine builds the same entries (docs/asrun.md).
 *
 * - An item voided by a later cut (a reset, a late event) never aired; one cut short aired until the
 *   cut (cuts are on segment boundaries, so that is where its last segment ends).
 * - A preroll is an ad break: cue-out at its start, cue-in where the next item starts. An item with an
 *   interstitial carries its ad break too, at its start, with the channel's timeline unmoved.
 * - The live items of one LIVE event (one per poll of its source) are one entry, from the switch in
 *   to the switch out; each carries where the event went live and its scheduled end, so a tail that
 *   starts mid-event gives the same entry.
 * - Only what is final is returned: entries that ended by `untilMs` (a cut is always ahead of the
 *   clock, so nothing that ended can change), and a live event once something followed it.
 */
import type { AsRunEntry, AsRunKind, LiveOutReason } from '../../../core/asrun/asrun-entry';
import { itemEndMs, type PlayoutItem } from '../playout/item';
import { cutsOf, isVoided } from '../playout/item-range';

interface Aired {
  item: PlayoutItem;
  endMs: number;
  cut: boolean;
}

/** The items that aired, in order, with where each ended. */
function airedItems(items: readonly PlayoutItem[]): Aired[] {
  const cuts = cutsOf(items);
  const out: Aired[] = [];
  items.forEach((item, k) => {
    const cut = cuts[k]!;
    if (isVoided(item, cut)) return;
    const end = itemEndMs(item);
    out.push({ item, endMs: Math.min(end, cut), cut: cut < end });
  });
  return out;
}

const KIND: Record<PlayoutItem['kind'], AsRunKind> = {
  vod: 'vod',
  preroll: 'preroll',
  slate: 'slate',
  gap: 'slate',
  live: 'live',
};

/** The public cause of a slate: the engine's own codes, any other (an error message) as `vod_error`. */
const SLATE_REASONS = new Set(['gap', 'store_unavailable', 'live_segments_too_long']);
const slateReason = (reason: string | undefined): string | undefined =>
  reason === undefined ? undefined : SLATE_REASONS.has(reason) ? reason : 'vod_error';

function entryOf({ item, endMs }: Aired, startMs = item.startMs): AsRunEntry {
  const kind = KIND[item.kind];
  const entry: AsRunEntry = {
    startMs,
    endMs,
    durationMs: endMs - startMs,
    kind,
    id: item.id,
    title: item.title,
  };
  if (item.eventId !== undefined) entry.eventId = item.eventId;
  if (kind === 'slate') {
    const reason = slateReason(item.reason);
    if (reason !== undefined) entry.reason = reason;
  }
  if (kind === 'preroll')
    entry.adBreak = {
      cueOutMs: startMs,
      cueInMs: endMs,
      durationMs: endMs - startMs,
      plannedDurationMs: item.durationMs,
      delivery: 'spliced',
    };
  // Offered, not aired by the channel: whether a viewer watched it is the player's to say.
  if (item.interstitial && startMs === item.startMs) {
    const adMs = item.interstitial.durationMs ?? 0;
    entry.adBreak = {
      cueOutMs: startMs,
      cueInMs: startMs,
      durationMs: adMs,
      plannedDurationMs: adMs,
      delivery: 'interstitial',
    };
  }
  return entry;
}

/** Does `next` continue the live event of `group`'s last item (the same event, without a gap)? */
const continuesLive = (last: Aired, next: Aired): boolean =>
  next.item.kind === 'live' &&
  last.item.kind === 'live' &&
  next.item.eventId === last.item.eventId &&
  next.item.startMs === last.endMs;

function liveOutReason(last: Aired): LiveOutReason {
  if (last.cut) return 'interrupted';
  const scheduledEnd = last.item.live?.eventEndMs;
  return scheduledEnd !== undefined && last.endMs >= scheduledEnd ? 'scheduled_end' : 'source_failed';
}

function liveEntry(group: readonly Aired[]): AsRunEntry {
  const first = group[0]!;
  const last = group[group.length - 1]!;
  const inMs = first.item.live?.inMs ?? first.item.startMs;
  const entry = entryOf(last, inMs);
  entry.live = { inMs, outMs: last.endMs, outReason: liveOutReason(last) };
  return entry;
}

/** The final as-run entries of `items` (a log or its tail, in seq order), oldest first. */
export function buildAsRun(items: readonly PlayoutItem[], untilMs: number): AsRunEntry[] {
  const aired = airedItems(items);
  const entries: AsRunEntry[] = [];
  for (let k = 0; k < aired.length; k++) {
    const a = aired[k]!;
    if (a.item.kind !== 'live') {
      if (a.endMs <= untilMs) entries.push(entryOf(a));
      continue;
    }
    const group = [a];
    while (k + 1 < aired.length && continuesLive(group[group.length - 1]!, aired[k + 1]!))
      group.push(aired[++k]!);
    const last = group[group.length - 1]!;
    // A live event is over once something else follows it (the log keeps ahead of the clock).
    if (k + 1 < aired.length && last.endMs <= untilMs) entries.push(liveEntry(group));
  }
  return entries;
}
