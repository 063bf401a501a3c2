/**
 * Why playback halted, judged from what each SourceBuffer held at that moment (the page records every
 * track's own ranges on 'waiting' and 'stalled') and when each fragment was buffered and published.
 * A stall is the stream's when a track has a hole at the playhead (data after it, none at it) or ran
 * dry waiting for a fragment the channel had not yet published; it is the player's when the fragment
 * it waited for had been published before it ran dry (a busy machine fetched or appended it late), or
 * when every track held data at the playhead (the decoder or the page was starved of CPU), or when the
 * hole is where hls.js gave up loading a fragment (`excuseGivenUpHoles`). Pure.
 */

/** One Hls.Events.ERROR as the page saw it. */
export interface HlsErrorEvent {
  /** Milliseconds since the page loaded; and Date.now() in the page, the channel's PDT clock here. */
  atMs: number;
  wallMs: number;
  /** The fragment a failed load was for: 'main', 'audio' or 'subtitle', and where it sits (seconds). */
  frag?: { type: string; start: number; duration: number } | null;
  /** networkError, mediaError, muxError, keySystemError, otherError. */
  type: string;
  /** e.g. fragLoadError, levelLoadError, bufferStalledError. */
  details: string;
  fatal: boolean;
  url: string | null;
  /** HTTP status of a failed load, when there was one. */
  status: number | null;
  reason: string | null;
}

/** hls.js errors that mean a media segment could not be loaded. */
export const isSegmentLoadError = (e: HlsErrorEvent): boolean =>
  e.type === 'networkError' && e.details.startsWith('frag');

/**
 * Did hls.js abandon this load itself? Its ABR gives up a fragment that loads slower than it plays (a
 * starved page measures any load as slow), and a flush or a switch cancels one in flight: never an
 * answer from the server (a clean-clone run, 2026-11-29: 'aborted' at 5.5 s, nothing else wrong).
 */
export const isOwnAbort = (e: { details: string; fatal: boolean }): boolean =>
  !e.fatal && e.details === 'aborted';

/** One line per error, for test output and failure messages. */
export const describeErrors = (errors: readonly HlsErrorEvent[]): string =>
  errors
    .map(
      (e) =>
        `${(e.atMs / 1000).toFixed(1)}s ${e.fatal ? 'FATAL ' : ''}${e.type}/${e.details}` +
        `${e.status ? ` ${e.status}` : ''}${e.url ? ` ${e.url}` : ''}${e.reason ? ` (${e.reason})` : ''}`,
    )
    .join('\n');

/** What the page recorded when playback halted. */
export interface StallBuffers {
  atMs: number;
  /** Date.now() in the page: the same clock as the channel's PDT on this machine. */
  wallMs: number;
  currentTime: number;
  /** Per SourceBuffer ('video', 'audio'): its buffered ranges, seconds on the media timeline. */
  tracks: Record<string, Array<[number, number]>>;
}

/** A fragment hls.js buffered (FRAG_BUFFERED). */
export interface BufferedFrag {
  wallMs: number;
  /** hls.js's playlist type: 'main', 'audio', 'subtitle'. */
  type: string;
  start: number;
  duration: number;
  /** EXT-X-PROGRAM-DATE-TIME of the fragment, Unix ms. */
  pdtMs: number | null;
}

export type StallKind = 'hole' | 'late' | 'starved' | 'held-data';

export interface JudgedStall {
  atMs: number;
  currentTime: number;
  kind: StallKind;
  /** The stream's fault (a hole, a fragment published after the player needed it), not the player's. */
  stream: boolean;
  detail: string;
  /** For a hole: the track, and where its data before the hole ends and after it starts (media seconds). */
  hole?: { track: string; fromS: number; toS: number };
}

/** A track holds the playhead when its range reaches this far past it. */
const HOLDS_S = 0.25;
/** Ranges that start this close after the playhead still count as at it (hls.js's nudges cover it). */
const AT_S = 0.05;

type TrackState = { kind: 'holds' } | { kind: 'hole'; fromS: number; toS: number } | { kind: 'dry' };

function trackState(ranges: ReadonlyArray<[number, number]>, t: number): TrackState {
  for (const [start, end] of ranges) if (start <= t + AT_S && end > t + HOLDS_S) return { kind: 'holds' };
  const after = ranges.filter(([start]) => start > t + AT_S);
  if (after.length === 0) return { kind: 'dry' };
  const next = Math.min(...after.map(([start]) => start));
  // The hole runs from the end of the data before it (or the playhead, when there is none) to the next data.
  const endsBefore = ranges.filter(([, end]) => end <= next).map(([, end]) => end);
  const before = endsBefore.length ? Math.max(...endsBefore) : t;
  return { kind: 'hole', fromS: before, toS: next };
}

/** The fragment type that feeds a SourceBuffer: audio comes from 'audio' fragments when there are any. */
const feeds = (track: string, frags: readonly BufferedFrag[]): string =>
  track === 'audio' && frags.some((f) => f.type === 'audio') ? 'audio' : 'main';

function judgeDry(stall: StallBuffers, track: string, frags: readonly BufferedFrag[]): JudgedStall {
  const t = stall.currentTime;
  const type = feeds(track, frags);
  // The fragment that ended the halt: buffered after it (one buffered before was flushed since, as an
  // audio switch does), the earliest that reaches past the playhead.
  const needed = frags
    .filter((f) => f.type === type && f.wallMs >= stall.wallMs && f.start + f.duration > t + AT_S)
    .sort((a, b) => a.start - b.start)[0];
  const base = { atMs: stall.atMs, currentTime: t };
  if (!needed || needed.pdtMs === null)
    return { ...base, kind: 'late', stream: true, detail: `${track} ran dry; no later fragment buffered` };
  const publishedMs = needed.pdtMs + needed.duration * 1000;
  const slackS = (stall.wallMs - publishedMs) / 1000;
  return slackS >= 0
    ? {
        ...base,
        kind: 'starved',
        stream: false,
        detail: `${track} ran dry ${slackS.toFixed(1)} s after the channel published the fragment it needed (buffered ${((needed.wallMs - stall.wallMs) / 1000).toFixed(1)} s after)`,
      }
    : {
        ...base,
        kind: 'late',
        stream: true,
        detail: `${track} ran dry ${(-slackS).toFixed(1)} s before the channel published the fragment it needed`,
      };
}

export function judgeStall(stall: StallBuffers, frags: readonly BufferedFrag[]): JudgedStall {
  const t = stall.currentTime;
  const states = Object.entries(stall.tracks).map(([track, ranges]) => ({ track, ...trackState(ranges, t) }));
  const base = { atMs: stall.atMs, currentTime: t };
  const hole = states.find((s) => s.kind === 'hole');
  if (hole?.kind === 'hole')
    return {
      ...base,
      kind: 'hole',
      stream: true,
      detail: `${hole.track} has a hole of ${((hole.toS - hole.fromS) * 1000).toFixed(0)} ms at ${t.toFixed(3)}`,
      hole: { track: hole.track, fromS: hole.fromS, toS: hole.toS },
    };
  const dry = states.find((s) => s.kind === 'dry');
  if (dry) return judgeDry(stall, dry.track, frags);
  if (states.length === 0)
    return { ...base, kind: 'late', stream: true, detail: 'no SourceBuffer to judge by' };
  return { ...base, kind: 'held-data', stream: false, detail: 'every track held data at the playhead' };
}

export const judgeStalls = (stalls: readonly StallBuffers[], frags: readonly BufferedFrag[]): JudgedStall[] =>
  stalls.map((s) => judgeStall(s, frags));

/** The fragment types that feed a track: video comes from 'main', audio from 'audio' or muxed 'main'. */
const FED_BY: Record<string, readonly string[]> = { video: ['main'], audio: ['audio', 'main'] };

/**
 * The halt, when it is a hole where hls.js gave up loading a fragment (`givenUp`: loads that failed by
 * the player's doing, as `isOwnAbort`, or a 404 the caller judged the player's) judged the player's:
 * the stream had that fragment, the player let it go and moved on. Any other hole stays the stream's.
 */
export function excuseGivenUpHole(
  stall: JudgedStall,
  givenUp: readonly Pick<HlsErrorEvent, 'details' | 'frag'>[],
): JudgedStall {
  const hole = stall.hole;
  if (!hole) return stall;
  const gaveUp = givenUp.find(
    ({ frag }) =>
      frag &&
      (FED_BY[hole.track] ?? []).includes(frag.type) &&
      frag.start < hole.toS - AT_S &&
      frag.start + frag.duration > hole.fromS + AT_S,
  );
  return gaveUp
    ? {
        ...stall,
        stream: false,
        detail: `${stall.detail}, where hls.js gave up a fragment (${gaveUp.details})`,
      }
    : stall;
}

/** `excuseGivenUpHole` over every halt of a play. */
export const excuseGivenUpHoles = (
  stalls: readonly JudgedStall[],
  givenUp: readonly Pick<HlsErrorEvent, 'details' | 'frag'>[],
): JudgedStall[] => stalls.map((s) => excuseGivenUpHole(s, givenUp));

/** One line per stall, for test output and failure messages. */
export const describeStalls = (stalls: readonly JudgedStall[]): string =>
  stalls
    .map((s) => `${(s.atMs / 1000).toFixed(1)}s @${s.currentTime.toFixed(3)} ${s.kind}: ${s.detail}`)
    .join('\n');

/**
 * What a play's halts hold against the stream, one line each (none: the stream never held the player):
 * every halt judged the stream's, and halts the page counted without the buffers to judge them by. A
 * halt waiting for a fragment published in time (a busy machine fetched or appended it late), or with
 * every track holding data, is the player's and not listed.
 */
export function streamHaltProblems(play: { stalls: number; judgedStalls: readonly JudgedStall[] }): string[] {
  const problems = play.judgedStalls
    .filter((s) => s.stream)
    .map((s) => `the stream's: ${describeStalls([s])}`);
  const unjudged = play.stalls - play.judgedStalls.length;
  if (unjudged > 0) problems.push(`${unjudged} of ${play.stalls} halts not judged: no buffers recorded`);
  return problems;
}

/** A media element event the page recorded ('playing', 'waiting', ...), on the halts' clock. */
interface MediaEventAt {
  atMs: number;
  type: string;
}

/**
 * Seconds the playhead stood still in halts judged the player's: from each such halt to the next
 * 'playing' (or `endMs`, when playback never resumed), halts that overlap (a 'waiting' and its
 * 'stalled') counted once. A busy machine that fetched, appended or decoded late held the playhead
 * then, not the stream, so a check of the seconds played forgives these and nothing else.
 */
export function playersHaltSeconds(
  stalls: readonly JudgedStall[],
  events: readonly MediaEventAt[],
  endMs: number,
): number {
  let haltedMs = 0;
  let countedTo = Number.NEGATIVE_INFINITY;
  for (const stall of stalls.filter((s) => !s.stream).sort((a, b) => a.atMs - b.atMs)) {
    const resumedAt = events.find((e) => e.type === 'playing' && e.atMs >= stall.atMs)?.atMs ?? endMs;
    const from = Math.max(stall.atMs, countedTo);
    if (resumedAt > from) haltedMs += resumedAt - from;
    countedTo = Math.max(countedTo, resumedAt);
  }
  return haltedMs / 1000;
}

/** hls.js's errors that only report a halt: a stalled buffer, a nudge past a stall. */
const HALT_NOTES = new Set(['bufferStalledError', 'bufferNudgeOnStall']);
/** How far apart (page ms) hls.js's note and the media element's halt may be. */
const NOTE_WINDOW_MS = 3000;

/**
 * Is this hls.js error only its note of a halt judged the player's (a non-fatal bufferStalledError or
 * bufferNudgeOnStall within 3 s of it)? A hole (bufferSeekOverHole) or any other error never is.
 */
export const isPlayersHaltNote = (
  error: { atMs: number; details: string; fatal: boolean },
  stalls: readonly JudgedStall[],
): boolean =>
  !error.fatal &&
  HALT_NOTES.has(error.details) &&
  stalls.some((s) => !s.stream && Math.abs(s.atMs - error.atMs) <= NOTE_WINDOW_MS);

/**
 * Is this hls.js error its start-up race, not a hole in the stream? Until hls.js moves the media element
 * to its start position (seconds into a live stream), the element's currentTime is 0; a gap check in
 * that moment "seeks over a hole" from 0 to the first fragment buffered (a loaded machine, 2026-11-29:
 * "seeking from 0 to 28.16" at 0.7 s, before the play started). A hole in the stream is met from where
 * playback is, never from 0.
 */
export const isStartUpSeek = (error: { details: string; fatal: boolean; reason?: string | null }): boolean =>
  !error.fatal && error.details === 'bufferSeekOverHole' && / seeking from 0 to /.test(error.reason ?? '');

/**
 * hls.js's errors that are the player's: its note of a halt judged the player's, its start-up seek, or
 * a load it abandoned itself.
 */
export const isPlayersNote = (
  error: { atMs: number; details: string; fatal: boolean; reason?: string | null },
  stalls: readonly JudgedStall[],
): boolean => isPlayersHaltNote(error, stalls) || isStartUpSeek(error) || isOwnAbort(error);

/** One reload of a media playlist: which, when it arrived (Unix ms), and the segment URIs it listed. */
export interface Listing {
  playlist: string;
  wallMs: number;
  uris: ReadonlySet<string>;
}

/**
 * Had the channel stopped listing `uri` by `wallMs`: did the latest reload by then of every playlist
 * that ever listed it no longer list it? A 404 for such a segment is the player's (its playlist was
 * stale: a starved page fell a window behind), not a segment the channel listed after its source
 * dropped it. Unknown URIs, or none reloaded by then, count as still listed: the stream's.
 */
export function droppedBefore(listings: readonly Listing[], uri: string, wallMs: number): boolean {
  const playlists = new Set(listings.filter((l) => l.uris.has(uri)).map((l) => l.playlist));
  if (playlists.size === 0) return false;
  return [...playlists].every((playlist) => {
    const byThen = listings.filter((l) => l.playlist === playlist && l.wallMs <= wallMs);
    const latest = byThen.reduce<Listing | undefined>(
      (a, l) => (a && a.wallMs > l.wallMs ? a : l),
      undefined,
    );
    return latest !== undefined && !latest.uris.has(uri);
  });
}

/** One AAC frame at 48 kHz: 1024 samples. */
const AAC_FRAME_S = 1024 / 48_000;

/**
 * The halts a seam between two encodes with demuxed audio causes whatever the playlist lists: an audio
 * hole of at most two AAC frames where playback crossed into another discontinuity (`seamStarts`, media
 * seconds), and the halt at the point hls.js jumped to past it. Each encode cuts its audio on its own
 * AAC grid, so at a video boundary the audio before the seam ends up to a frame early and the audio
 * after it starts up to a frame late (hls.js places fMP4 audio by its own timestamps); Chromium bridges
 * a gap of one frame, not more. Anything else (a video hole, a wider hole, a late fragment) is not one.
 */
export function seamAudioHoleHalts(
  stalls: readonly JudgedStall[],
  seamStarts: readonly number[],
): JudgedStall[] {
  const atSeam = (h: NonNullable<JudgedStall['hole']>) =>
    h.track === 'audio' &&
    h.toS - h.fromS <= 2 * AAC_FRAME_S &&
    seamStarts.some((t) => t >= h.fromS - AAC_FRAME_S && t <= h.toS + AAC_FRAME_S);
  const excused: JudgedStall[] = [];
  let lastHole: NonNullable<JudgedStall['hole']> | undefined;
  for (const s of stalls) {
    if (s.hole && atSeam(s.hole)) {
      excused.push(s);
      lastHole = s.hole;
    } else if (
      lastHole &&
      !s.stream &&
      s.currentTime >= lastHole.toS &&
      s.currentTime <= lastHole.toS + HOLDS_S
    ) {
      // hls.js seeks 0.1 s past the hole's end; the element may report 'waiting' once more there.
      excused.push(s);
      lastHole = undefined;
    } else lastHole = undefined;
  }
  return excused;
}
