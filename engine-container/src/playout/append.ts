/**
 * Turning a planned item into the next log item: where it starts, and the per-rendition counts of
 * everything played before it. Pure; the store's conditional append makes it the only writer.
 */
import { firstStartingAtOrAfter, startAt } from '../vod/track';
import { type ItemDraft, itemEndMs, type PlayoutItem } from './item';
import { cutsOf, discontinuitiesInItemBefore, isVoided, itemRange } from './item-range';
import { MissingVodError, type TrackResolver } from './window';

/** Resolver key for a VOD's reference rendition (its first variant): it defines item durations. */
export const REFERENCE_KEY = 'ref';

export interface ChannelHeader {
  ladder: PlayoutItem['ladder'];
  targetDurationS: number;
}

/** Where the next item starts: where the log ends, or (log empty or ended long ago) one window back. */
export function nextStartMs(tail: readonly PlayoutItem[], nowMs: number, windowMs: number): number {
  const last = tail[tail.length - 1];
  const backdated = Math.floor(nowMs) - windowMs;
  return last ? Math.max(itemEndMs(last), backdated) : backdated;
}

export function logEndMs(tail: readonly PlayoutItem[]): number {
  const last = tail[tail.length - 1];
  return last ? itemEndMs(last) : Number.NEGATIVE_INFINITY;
}

/**
 * The first reference-segment boundary at or after atMs in what is playing then: where a reset or a
 * live cut-in can start without taking back a segment a player may already have seen.
 */
export function cutBoundaryMs(tail: readonly PlayoutItem[], atMs: number, resolve: TrackResolver): number {
  const cuts = cutsOf(tail);
  for (let k = tail.length - 1; k >= 0; k--) {
    const item = tail[k]!;
    if (isVoided(item, cuts[k]!) || item.startMs > atMs) continue;
    if (Math.min(itemEndMs(item), cuts[k]!) <= atMs) return atMs;
    const track = resolve(item, REFERENCE_KEY);
    if (!track) throw new MissingVodError(item.uri);
    const range = itemRange(item, track, cuts[k]);
    const i = firstStartingAtOrAfter(track, range.baseMs + atMs - item.startMs, range.first, range.end);
    return item.startMs + startAt(track, i) - range.baseMs;
  }
  return atMs;
}

function countsBefore(
  tail: readonly PlayoutItem[],
  startMs: number,
  keys: readonly string[],
  resolve: TrackResolver,
) {
  const segments: Record<string, number> = {};
  const discontinuities: Record<string, number> = {};
  // The base is the last item the new one does not void; scanning back from the end keeps this O(1)
  // in the usual case (the base is the last item) however long the tail is.
  let cut = startMs;
  let b = tail.length - 1;
  while (b >= 0 && isVoided(tail[b]!, cut)) cut = Math.min(cut, tail[b--]!.startMs);
  const base = tail[b];
  for (const key of keys) {
    if (!base) {
      // Everything in the tail is voided (or the log is empty): nothing more was played.
      segments[key] = tail[0]?.segmentsBefore[key] ?? 0;
      discontinuities[key] = tail[0]?.discontinuitiesBefore[key] ?? 0;
      continue;
    }
    const track = resolve(base, key);
    if (!track) throw new MissingVodError(base.uri);
    const range = itemRange(base, track, cut);
    segments[key] = (base.segmentsBefore[key] ?? 0) + range.end - range.first;
    discontinuities[key] =
      (base.discontinuitiesBefore[key] ?? 0) + discontinuitiesInItemBefore(base, range, range.end);
  }
  return { segments, discontinuities };
}

export function buildItem(
  tail: readonly PlayoutItem[],
  draft: ItemDraft,
  startMs: number,
  header: ChannelHeader,
  keys: readonly string[],
  resolve: TrackResolver,
): PlayoutItem {
  const last = tail[tail.length - 1];
  const counts = countsBefore(tail, startMs, keys, resolve);
  const { kind, id, title, uri, offsetMs, durationMs, loop, timedMetadata, eventId, reason, live } = draft;
  const item: PlayoutItem = {
    seq: last ? last.seq + 1 : 0,
    startMs,
    kind,
    id,
    title,
    uri,
    offsetMs,
    durationMs,
    loop,
    targetDurationS: header.targetDurationS,
    ladder: header.ladder,
    segmentsBefore: counts.segments,
    discontinuitiesBefore: counts.discontinuities,
  };
  // Optional fields are left out rather than deleted later (a delete makes V8 keep the object in slow mode).
  if (timedMetadata !== undefined) item.timedMetadata = timedMetadata;
  if (eventId !== undefined) item.eventId = eventId;
  if (reason !== undefined) item.reason = reason;
  if (live !== undefined) item.live = live;
  if (draft.continues) item.continues = 1;
  if (draft.resumes) item.resumes = draft.resumes;
  if (draft.fullDurationMs !== undefined) item.fullDurationMs = draft.fullDurationMs;
  if (draft.interstitial) item.interstitial = draft.interstitial;
  return item;
}
