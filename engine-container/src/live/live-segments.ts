/**
 * Pure: which new segments of a live source go into the channel's log, and as what. Output variants
 * map to source variants like a VOD's (ladder/map-rendition.ts), audio and subtitle renditions to the
 * source's renditions (live-renditions.ts); only media sequence numbers every mapped playlist already
 * has are taken, so all renditions of an item carry the same source segments.
 */

import type { SegmentCue } from '../hls/parse-cues';
import type { SourceSegment } from '../hls/parse-media';
import { variantIndexFor } from '../ladder/map-rendition';
import { videoKey } from '../ladder/output-ladder';
import { REFERENCE_KEY } from '../playout/append';
import type { LiveSegment, LiveSegments, PlayoutItem } from '../playout/item';
import { EMPTY_WEBVTT, type LiveSource, renditionSources } from './live-renditions';
import type { LivePlaylist, LiveSnapshot } from './live-source';

/** The source playlist (or empty WebVTT) per output rendition key, and the reference variant. */
export interface LiveMap {
  ref: LivePlaylist;
  byKey: Record<string, LiveSource>;
  /** The distinct source playlists the map reads. */
  used: LivePlaylist[];
}

export function mapLiveSource(
  snapshot: LiveSnapshot,
  ladder: PlayoutItem['ladder'],
  nearest: boolean,
): LiveMap {
  // Video rungs among the source's video variants, an audio-only rung among its audio-only ones (an
  // ffmpeg source with demuxed audio lists its audio as a variant too): as for a VOD.
  const source = { variants: snapshot.variants.map((v) => v.variant) };
  const pick = (k: number) =>
    snapshot.variants[source.variants.length === 1 ? 0 : variantIndexFor(ladder, k, source, nearest)]!;
  const ref = pick(0);
  const byKey: Record<string, LiveSource> = { [REFERENCE_KEY]: ref };
  ladder.variants.forEach((_, k) => {
    byKey[videoKey(k)] = pick(k);
  });
  Object.assign(byKey, renditionSources(snapshot, ladder, ref));
  const used = [...new Set(Object.values(byKey))].filter((s): s is LivePlaylist => s !== EMPTY_WEBVTT);
  return { ref, byKey, used };
}

const lastMsn = (v: LivePlaylist): number => v.mediaSequence + v.segments.length - 1;

/** The newest media sequence number every playlist in `used` has. */
export const commonLastMsn = (used: readonly LivePlaylist[]): number => Math.min(...used.map(lastMsn));

/** The oldest media sequence number every playlist in `used` still lists. */
export const commonFirstMsn = (used: readonly LivePlaylist[]): number =>
  Math.max(...used.map((v) => v.mediaSequence));

export const sliceMsn = (v: LivePlaylist, fromMsn: number, toMsn: number): SourceSegment[] =>
  v.segments.slice(fromMsn - v.mediaSequence, toMsn - v.mediaSequence + 1);

/** What the log keeps of a source segment: how to fetch and decode it, no undefined field. */
function toLiveSegment(s: SourceSegment, cue: SegmentCue | undefined): LiveSegment {
  const out: LiveSegment = { uri: s.uri, durationMs: s.durationMs };
  if (s.byterange) out.byterange = { length: s.byterange.length, offset: s.byterange.offset };
  if (s.keys) out.keys = s.keys;
  if (s.map) out.map = s.map;
  if (s.discontinuity) out.discontinuity = 1;
  if (cue) out.cue = cue;
  return out;
}

/**
 * The segments [fromMsn, toMsn] of each mapped rendition; the reference decides the item's duration.
 * Empty WebVTT follows the reference's boundaries, named by where each plays on the channel's clock
 * (from startMs): unique URIs, the same in every engine since they are in the log. Every rendition
 * carries the reference's cues (live-cues.ts), so each playlist lists the same breaks.
 */
export function liveSegments(
  map: LiveMap,
  fromMsn: number,
  toMsn: number,
  startMs: number,
  emptyVttUri: (startMs: number, durationMs: number) => string,
  cues: ReadonlyArray<SegmentCue | undefined> = [],
): LiveSegments {
  const segments: LiveSegments['segments'] = {};
  const ref = sliceMsn(map.ref, fromMsn, toMsn);
  // The reference's discontinuities on every rendition: their discontinuity sequences stay equal.
  const disc = (i: number) => ref[i]!.discontinuity;
  for (const [key, source] of Object.entries(map.byKey)) {
    if (source === EMPTY_WEBVTT) {
      let at = startMs;
      segments[key] = ref.map((s, i) => {
        const uri = emptyVttUri(at, s.durationMs);
        at += s.durationMs;
        return toLiveSegment({ uri, durationMs: s.durationMs, discontinuity: disc(i) }, cues[i]);
      });
    } else {
      segments[key] = sliceMsn(source, fromMsn, toMsn).map((s, i) =>
        toLiveSegment({ ...s, discontinuity: disc(i) }, cues[i]),
      );
    }
  }
  return { msn: fromMsn, segments };
}

/**
 * Where to join a source at the switch in: the newest segments that make `leadMs` of playback (at
 * least one), so the channel's log stays that far ahead while the source keeps producing.
 */
export function joinMsn(ref: LivePlaylist, firstMsn: number, toMsn: number, leadMs: number): number {
  let msn = toMsn;
  let total = ref.segments[toMsn - ref.mediaSequence]!.durationMs;
  while (msn > firstMsn && total < leadMs) {
    msn--;
    total += ref.segments[msn - ref.mediaSequence]!.durationMs;
  }
  return msn;
}

export const longestSegmentMs = (used: readonly LivePlaylist[]): number =>
  Math.max(...used.flatMap((v) => v.segments.map((s) => s.durationMs)));

/** The last source media sequence number a live item plays. */
export const itemLastMsn = (item: PlayoutItem): number | undefined =>
  item.live ? item.live.msn + (item.live.segments[REFERENCE_KEY]?.length ?? 0) - 1 : undefined;
