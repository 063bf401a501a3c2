/**
 * Pure: which new segments of a live source go into the channel's log, and as what. Output renditions
 * map to source variants like a VOD's (ladder/map-rendition.ts); only media sequence numbers every
 * mapped variant already has are taken, so all renditions of an item carry the same segments.
 */
import { mapVariantIndex } from '../ladder/map-rendition';
import { renditionKeys } from '../ladder/output-ladder';
import { REFERENCE_KEY } from '../playout/append';
import type { LiveSegments, PlayoutItem } from '../playout/item';
import type { LiveSnapshot, LiveVariant } from './live-source';

/** Source variant index per output rendition key (and the reference key). */
export function variantForKey(
  snapshot: LiveSnapshot,
  ladder: PlayoutItem['ladder'],
  nearest: boolean,
): Record<string, number> {
  const out = ladder.variants.map((v) => v.bandwidth);
  const source = snapshot.variants.map((v) => v.variant.bandwidth);
  const pick = (k: number) => (source.length === 1 ? 0 : mapVariantIndex(out, k, source, nearest));
  const map: Record<string, number> = { [REFERENCE_KEY]: pick(0) };
  // Audio and subtitle renditions of the channel play the reference variant's (muxed) segments.
  for (const key of renditionKeys(ladder))
    map[key] = key.startsWith('v') ? pick(Number(key.slice(1))) : map.ref!;
  return map;
}

const lastMsn = (v: LiveVariant): number => v.mediaSequence + v.segments.length - 1;

/** The newest media sequence number every variant in `used` has. */
export function commonLastMsn(snapshot: LiveSnapshot, used: readonly number[]): number {
  return Math.min(...used.map((i) => lastMsn(snapshot.variants[i]!)));
}

/** The oldest media sequence number every variant in `used` still lists. */
export function commonFirstMsn(snapshot: LiveSnapshot, used: readonly number[]): number {
  return Math.max(...used.map((i) => snapshot.variants[i]!.mediaSequence));
}

/** The segments [fromMsn, toMsn] of each mapped rendition; the reference decides the durations. */
export function liveSegments(
  snapshot: LiveSnapshot,
  map: Record<string, number>,
  fromMsn: number,
  toMsn: number,
): LiveSegments {
  const segments: LiveSegments['segments'] = {};
  for (const [key, index] of Object.entries(map)) {
    const v = snapshot.variants[index]!;
    segments[key] = v.segments
      .slice(fromMsn - v.mediaSequence, toMsn - v.mediaSequence + 1)
      .map((s) => ({ uri: s.uri, durationMs: s.durationMs }));
  }
  return { msn: fromMsn, segments };
}

/**
 * Where to join a source at the switch in: the newest segments that make `leadMs` of playback (at
 * least one), so the channel's log stays that far ahead while the source keeps producing.
 */
export function joinMsn(
  snapshot: LiveSnapshot,
  refIndex: number,
  firstMsn: number,
  toMsn: number,
  leadMs: number,
): number {
  const ref = snapshot.variants[refIndex]!;
  let msn = toMsn;
  let total = ref.segments[toMsn - ref.mediaSequence]!.durationMs;
  while (msn > firstMsn && total < leadMs) {
    msn--;
    total += ref.segments[msn - ref.mediaSequence]!.durationMs;
  }
  return msn;
}

export const longestSegmentMs = (snapshot: LiveSnapshot): number =>
  Math.max(...snapshot.variants.flatMap((v) => v.segments.map((s) => s.durationMs)));

/** The last source media sequence number a live item plays. */
export const itemLastMsn = (item: PlayoutItem): number | undefined =>
  item.live ? item.live.msn + (item.live.segments[REFERENCE_KEY]?.length ?? 0) - 1 : undefined;
