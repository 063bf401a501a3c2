/**
 * RFC 8216 rules a live media playlist must keep, alone and between consecutive reloads. Pure: the
 * poller in hls-client.ts feeds it parsed playlists, unit tests feed it hand-written ones.
 */
import type { MediaPlaylist, MediaSegment } from './hls-playlist';
import { playlistDuration } from './hls-playlist';

export type Rule =
  /** The playlist could not be parsed. */
  | 'malformed'
  /** The playlist could not be fetched (network error, non-2xx). */
  | 'fetch-failed'
  /** EXT-X-MEDIA-SEQUENCE went down between reloads. */
  | 'media-sequence-decreased'
  /** The same media sequence number names a different segment in two reloads. */
  | 'segment-changed'
  /** A segment reappears at another media sequence number with no discontinuity in between. */
  | 'segment-moved'
  /** A reload ends earlier than the one before: segments were taken off the end. */
  | 'segments-removed-from-end'
  /** EXT-X-DISCONTINUITY-SEQUENCE did not grow by exactly the discontinuities that fell off the top. */
  | 'discontinuity-sequence'
  | 'target-duration-changed'
  /** An EXTINF, rounded to the nearest integer, exceeds EXT-X-TARGETDURATION. */
  | 'extinf-exceeds-target'
  /** The first segment carries no EXT-X-PROGRAM-DATE-TIME. */
  | 'pdt-missing'
  /** An EXT-X-PROGRAM-DATE-TIME disagrees with the one before it plus the EXTINFs in between. */
  | 'pdt-inconsistent'
  /** The same segment has a different date in two reloads. */
  | 'pdt-changed'
  /** A live playlist shorter than three target durations (RFC 8216 6.2.2). */
  | 'window-too-short'
  /** A live playlist carries EXT-X-ENDLIST. */
  | 'endlist'
  /** Over a poll of several target durations, no new segment ever appeared. */
  | 'no-progress'
  /** A segment's media timestamps do not follow on from the previous one, and no EXT-X-DISCONTINUITY says so. */
  | 'timestamp-gap';

export interface Violation {
  rule: Rule;
  message: string;
  /** 0-based index of the reload in which the violation showed up. */
  reload?: number;
  /** Media sequence number of the segment concerned, when one is. */
  mediaSequence?: number;
}

export interface RuleOptions {
  /** How far an EXT-X-PROGRAM-DATE-TIME may stray from the date its EXTINFs imply. Default 100 ms. */
  pdtToleranceMs?: number;
  /** Require a date on the first segment. Default true. */
  requirePdt?: boolean;
  /**
   * Dates run on across discontinuities (a linear channel's wall clock). Default true; false lets the
   * date jump at an EXT-X-DISCONTINUITY, which RFC 8216 allows in general.
   */
  pdtContinuousAcrossDiscontinuity?: boolean;
  /** Minimum live window, in target durations. Default 3 (RFC 8216 6.2.2); 0 turns the rule off. */
  minWindowTargetDurations?: number;
}

const defaults: Required<RuleOptions> = {
  pdtToleranceMs: 100,
  requirePdt: true,
  pdtContinuousAcrossDiscontinuity: true,
  minWindowTargetDurations: 3,
};

const segmentKey = (s: MediaSegment): string => (s.byteRange ? `${s.uri}@${s.byteRange}` : s.uri);
const lastSequence = (p: MediaPlaylist): number => p.mediaSequence + p.segments.length - 1;
const iso = (ms: number): string => new Date(ms).toISOString();

/** Dates of every segment: explicit where tagged, else carried forward from the previous one. */
export function impliedDates(playlist: MediaPlaylist): (number | undefined)[] {
  let carried: number | undefined;
  return playlist.segments.map((segment) => {
    const date = segment.programDateTimeMs ?? carried;
    carried = date === undefined ? undefined : date + segment.duration * 1000;
    return date;
  });
}

/**
 * The same media played twice is fine only as a new item, that is after a discontinuity: a segment
 * found at another media sequence number within the same discontinuity sequence has moved.
 */
function movedSegments(
  before: readonly MediaSegment[],
  after: readonly MediaSegment[],
  same = false,
): Violation[] {
  const byKey = new Map<string, MediaSegment[]>();
  for (const s of before) byKey.set(segmentKey(s), [...(byKey.get(segmentKey(s)) ?? []), s]);
  const violations: Violation[] = [];
  for (const s of after) {
    const moved = byKey
      .get(segmentKey(s))
      // Within one playlist, report each pair once (at its later segment).
      ?.find(
        (b) =>
          (same ? b.mediaSequence < s.mediaSequence : b.mediaSequence !== s.mediaSequence) &&
          b.discontinuitySequence === s.discontinuitySequence,
      );
    if (moved) {
      violations.push({
        rule: 'segment-moved',
        mediaSequence: s.mediaSequence,
        message: `${segmentKey(s)} is segment ${moved.mediaSequence} and segment ${s.mediaSequence}, with no discontinuity between`,
      });
    }
  }
  return violations;
}

/** Rules one live playlist keeps on its own. */
export function checkPlaylist(playlist: MediaPlaylist, options: RuleOptions = {}): Violation[] {
  const o = { ...defaults, ...options };
  const violations: Violation[] = [];
  const { segments, targetDuration } = playlist;

  if (playlist.endList) violations.push({ rule: 'endlist', message: 'live playlist carries EXT-X-ENDLIST' });
  const window = playlistDuration(playlist);
  if (
    !playlist.endList &&
    o.minWindowTargetDurations > 0 &&
    window < o.minWindowTargetDurations * targetDuration
  ) {
    violations.push({
      rule: 'window-too-short',
      message: `window holds ${window.toFixed(3)} s, less than ${o.minWindowTargetDurations} x target duration ${targetDuration} s`,
    });
  }
  for (const s of segments) {
    if (Math.round(s.duration) > targetDuration) {
      violations.push({
        rule: 'extinf-exceeds-target',
        mediaSequence: s.mediaSequence,
        message: `segment ${s.mediaSequence} lasts ${s.duration} s, rounds above target duration ${targetDuration} s`,
      });
    }
  }

  violations.push(...movedSegments(segments, segments, true));

  const first = segments[0];
  if (first && o.requirePdt && first.programDateTimeMs === undefined) {
    violations.push({
      rule: 'pdt-missing',
      mediaSequence: first.mediaSequence,
      message: `first segment ${first.mediaSequence} has no EXT-X-PROGRAM-DATE-TIME`,
    });
  }
  let expected: number | undefined;
  for (const s of segments) {
    if (s.discontinuity && !o.pdtContinuousAcrossDiscontinuity) expected = undefined;
    if (s.programDateTimeMs !== undefined) {
      if (expected !== undefined && Math.abs(s.programDateTimeMs - expected) > o.pdtToleranceMs) {
        violations.push({
          rule: 'pdt-inconsistent',
          mediaSequence: s.mediaSequence,
          message: `segment ${s.mediaSequence} is dated ${iso(s.programDateTimeMs)}, the EXTINFs before it imply ${iso(expected)}`,
        });
      }
      expected = s.programDateTimeMs;
    }
    if (expected !== undefined) expected += s.duration * 1000;
  }
  return violations;
}

/** Rules between a reload and the one before it (RFC 8216 6.2.1, 6.2.2). */
export function compareReloads(
  prev: MediaPlaylist,
  next: MediaPlaylist,
  options: RuleOptions = {},
): Violation[] {
  const o = { ...defaults, ...options };
  const violations: Violation[] = [];

  if (next.mediaSequence < prev.mediaSequence) {
    violations.push({
      rule: 'media-sequence-decreased',
      message: `EXT-X-MEDIA-SEQUENCE went from ${prev.mediaSequence} down to ${next.mediaSequence}`,
    });
  }
  if (next.targetDuration !== prev.targetDuration) {
    violations.push({
      rule: 'target-duration-changed',
      message: `EXT-X-TARGETDURATION changed from ${prev.targetDuration} to ${next.targetDuration}`,
    });
  }
  if (prev.segments.length > 0 && lastSequence(next) < lastSequence(prev)) {
    violations.push({
      rule: 'segments-removed-from-end',
      message: `last segment went from ${lastSequence(prev)} back to ${lastSequence(next)}`,
    });
  }

  const prevBySequence = new Map(prev.segments.map((s) => [s.mediaSequence, s]));
  const prevImplied = impliedDates(prev);
  const prevDates = new Map(prev.segments.map((s, i) => [s.mediaSequence, prevImplied[i]]));
  const nextDates = impliedDates(next);
  let reportedDiscontinuity = false;
  next.segments.forEach((s, i) => {
    const before = prevBySequence.get(s.mediaSequence);
    if (!before) return;
    if (segmentKey(before) !== segmentKey(s)) {
      violations.push({
        rule: 'segment-changed',
        mediaSequence: s.mediaSequence,
        message: `segment ${s.mediaSequence} was ${segmentKey(before)}, is now ${segmentKey(s)}`,
      });
    }
    if (before.discontinuitySequence !== s.discontinuitySequence && !reportedDiscontinuity) {
      // Reported once per reload: one wrong EXT-X-DISCONTINUITY-SEQUENCE shifts every segment after it.
      reportedDiscontinuity = true;
      const fellOff = prev.segments.filter(
        (p) => p.mediaSequence < next.mediaSequence && p.discontinuity,
      ).length;
      violations.push({
        rule: 'discontinuity-sequence',
        mediaSequence: s.mediaSequence,
        message:
          `segment ${s.mediaSequence} moved from discontinuity sequence ${before.discontinuitySequence} to ` +
          `${s.discontinuitySequence}: EXT-X-DISCONTINUITY-SEQUENCE went ${prev.discontinuitySequence} -> ` +
          `${next.discontinuitySequence} while ${fellOff} EXT-X-DISCONTINUITY tag(s) fell off the top`,
      });
    }
    const was = prevDates.get(s.mediaSequence);
    const is = nextDates[i];
    if (was !== undefined && is !== undefined && Math.abs(was - is) > o.pdtToleranceMs) {
      violations.push({
        rule: 'pdt-changed',
        mediaSequence: s.mediaSequence,
        message: `segment ${s.mediaSequence} was dated ${iso(was)}, is now ${iso(is)}`,
      });
    }
  });

  // No segment in common: the discontinuity sequence can only be bounded, not computed.
  const prevLast = prev.segments.at(-1);
  const nextFirst = next.segments[0];
  if (prevLast && nextFirst && nextFirst.mediaSequence > prevLast.mediaSequence) {
    if (nextFirst.discontinuitySequence < prevLast.discontinuitySequence) {
      violations.push({
        rule: 'discontinuity-sequence',
        mediaSequence: nextFirst.mediaSequence,
        message: `discontinuity sequence went back from ${prevLast.discontinuitySequence} to ${nextFirst.discontinuitySequence}`,
      });
    }
  }

  violations.push(...movedSegments(prev.segments, next.segments));
  return violations;
}

/**
 * Every rule over a series of reloads (in fetch order). A fault present in several reloads is reported
 * once, for the reload it first showed up in.
 */
export function checkReloads(playlists: readonly MediaPlaylist[], options: RuleOptions = {}): Violation[] {
  const seen = new Set<string>();
  const out: Violation[] = [];
  const add = (reload: number, found: Violation[]) => {
    for (const v of found) {
      const key = `${v.rule}|${v.mediaSequence ?? v.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...v, reload });
    }
  };
  playlists.forEach((playlist, i) => {
    add(i, checkPlaylist(playlist, options));
    const prev = playlists[i - 1];
    if (prev) add(i, compareReloads(prev, playlist, options));
  });
  return out;
}
