/**
 * A track is one rendition of a VOD (a video variant, an audio or a subtitle rendition) as a timeline
 * in integer milliseconds. Playout indexes it on an endless timeline: index i is segment i % n of
 * repetition floor(i / n), so a slate repeated ten times is the same track read further, and every
 * repetition after the first starts with a discontinuity (its timestamps restart).
 */
import type { SourceSegment } from '../hls/parse-media';

export interface Track {
  segments: readonly SourceSegment[];
  /** startsMs[i] is where segment i starts; startsMs[n] is the total. */
  startsMs: readonly number[];
  /** discPrefix[i] counts the source discontinuities on segments before i (within one repetition). */
  discPrefix: readonly number[];
  totalMs: number;
  maxSegmentMs: number;
}

export function buildTrack(segments: readonly SourceSegment[]): Track {
  const startsMs = [0];
  const discPrefix = [0];
  let maxSegmentMs = 0;
  for (const s of segments) {
    startsMs.push(startsMs[startsMs.length - 1]! + s.durationMs);
    discPrefix.push(discPrefix[discPrefix.length - 1]! + (s.discontinuity ? 1 : 0));
    maxSegmentMs = Math.max(maxSegmentMs, s.durationMs);
  }
  return { segments, startsMs, discPrefix, totalMs: startsMs[segments.length]!, maxSegmentMs };
}

/** Same timeline, other URIs (dummy or sliced subtitles follow the reference video's boundaries). */
export function deriveTrack(ref: Track, uriFor: (startMs: number, durationMs: number) => string): Track {
  const segments = ref.segments.map((s, i) => ({
    uri: uriFor(ref.startsMs[i]!, s.durationMs),
    durationMs: s.durationMs,
    discontinuity: s.discontinuity,
  }));
  return { ...ref, segments };
}

/** Start of endless-timeline index i. */
export function startAt(track: Track, i: number): number {
  const n = track.segments.length;
  return Math.floor(i / n) * track.totalMs + track.startsMs[i % n]!;
}

export function segmentAt(track: Track, i: number): SourceSegment {
  return track.segments[i % track.segments.length]!;
}

/** Does endless-timeline index i carry a discontinuity (source tag, or the start of a repetition)? */
export function discontinuityAt(track: Track, i: number): boolean {
  const n = track.segments.length;
  if (i > 0 && i % n === 0) return true;
  return segmentAt(track, i).discontinuity;
}

/** Number of indexes j < i with a discontinuity, in O(1). */
export function discontinuitiesBefore(track: Track, i: number): number {
  const n = track.segments.length;
  const prefix = track.discPrefix;
  const flag0 = prefix[1]!;
  const loops = Math.floor(i / n);
  const rem = i % n;
  if (loops === 0) return prefix[rem]!;
  const perLoop = prefix[n]! - flag0 + 1;
  return prefix[n]! + (loops - 1) * perLoop + (rem === 0 ? 0 : 1 + prefix[rem]! - flag0);
}

/** Smallest index in [lo, hi] whose start is >= x (hi when none). */
export function firstStartingAtOrAfter(track: Track, x: number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (startAt(track, mid) >= x) b = mid;
    else a = mid + 1;
  }
  return a;
}

/** An index bound past which no segment can start before x. */
export function indexBoundFor(track: Track, x: number, loop: boolean): number {
  const n = track.segments.length;
  return loop ? (Math.floor(Math.max(0, x) / track.totalMs) + 1) * n : n;
}
