/**
 * One minute of a soak, from what the page kept (page/soak.js) and the playlist rules broken: errors by
 * kind, halts (the stream's and the player's, test/support/stall-kinds.ts), frames dropped, distance
 * behind the live edge, the server's memory; and the whole run's totals. Pure.
 */
import {
  type BufferedFrag,
  describeStalls,
  excuseGivenUpHole,
  type HlsErrorEvent,
  isOwnAbort,
  type JudgedStall,
  judgeStall,
  type StallBuffers,
} from '../../test/support/stall-kinds';

/** What page/soak.js's window.__take() returns. */
export interface PageTake {
  started: boolean;
  playing: boolean;
  errors: Array<Pick<HlsErrorEvent, 'atMs' | 'type' | 'details' | 'fatal' | 'frag'>>;
  stalls: StallBuffers[];
  /** hls.latency, sampled every second: seconds behind the live edge. */
  latencies: number[];
  /** Now less the PDT of the picture on screen (hls.playingDate), sampled every second. */
  behindLive: number[];
  /** Seconds buffered ahead of the playhead, sampled every second. */
  bufferAhead: number[];
  currentTime: number;
  /** Date.now() in the page when it was taken. */
  wallMs: number;
  /** Cumulative, from getVideoPlaybackQuality(). */
  droppedFrames: number;
  totalFrames: number;
  frags: BufferedFrag[];
}

export interface MinuteSummary {
  minute: number;
  playing: boolean;
  /** `type/details` (a fatal one prefixed `FATAL `) → count. */
  errorsByKind: Record<string, number>;
  stalls: JudgedStall[];
  droppedFrames: number;
  frames: number;
  /** Media seconds played since the last take (currentTime's advance), and the wall-clock seconds between. */
  playedS?: number;
  wallS?: number;
  latencyS?: { min: number; mean: number; max: number };
  /** Wall-clock age of the picture on screen (by its PDT): what a viewer is behind the channel. */
  behindLiveS?: { min: number; mean: number; max: number };
  minBufferAheadS?: number;
  /**
   * Where hls.js put this minute's main fragments on its timeline less where their PDTs put them (the
   * median, ms), against the first minute's: a stream whose items play longer or shorter than listed
   * moves it, whatever the player's speed (docs/soak.md, "Latency").
   */
  timelineShiftMs?: number;
  /** RFC 8216 rule → violations seen on the channel's media playlists this minute. */
  rules: Record<string, number>;
  rssBytes?: number;
}

/** A halt this recent with no fragment after it yet is judged next minute, when that fragment has come. */
const UNSETTLED_MS = 15_000;

export interface Judged {
  stalls: JudgedStall[];
  /** Halts to judge again next minute (no fragment after them yet). */
  pending: StallBuffers[];
}

/**
 * Judges this minute's halts and the ones left pending, leaving recent ones with nothing after them; a
 * hole where hls.js abandoned a load of its own (`errors`) is the player's (excuseGivenUpHoles).
 */
export function judgeMinuteStalls(
  stalls: readonly StallBuffers[],
  frags: readonly BufferedFrag[],
  nowWallMs: number,
  final: boolean,
  errors: PageTake['errors'] = [],
): Judged {
  const out: Judged = { stalls: [], pending: [] };
  const givenUp = errors.filter(isOwnAbort);
  for (const stall of stalls) {
    const judged = excuseGivenUpHole(judgeStall(stall, frags), givenUp);
    const after = frags.some((f) => f.wallMs > stall.wallMs);
    if (!final && judged.stream && !after && nowWallMs - stall.wallMs < UNSETTLED_MS) out.pending.push(stall);
    else out.stalls.push(judged);
  }
  return out;
}

/** The median of (hls.js start less PDT) over the main fragments buffered after `sinceWallMs`, ms. */
export function timelineOffsetMs(frags: readonly BufferedFrag[], sinceWallMs: number): number | undefined {
  const offsets = frags
    .filter((f) => f.type === 'main' && f.pdtMs !== null && f.wallMs > sinceWallMs)
    .map((f) => f.start * 1000 - f.pdtMs!)
    .sort((a, b) => a - b);
  return offsets.length ? offsets[Math.floor(offsets.length / 2)] : undefined;
}

const stats = (xs: readonly number[]) =>
  xs.length
    ? {
        min: Math.min(...xs),
        mean: xs.reduce((a, b) => a + b, 0) / xs.length,
        max: Math.max(...xs),
      }
    : undefined;

export function summarizeMinute(input: {
  minute: number;
  take: PageTake;
  previous?: Pick<PageTake, 'droppedFrames' | 'totalFrames' | 'currentTime' | 'wallMs'>;
  stalls: JudgedStall[];
  rules: Record<string, number>;
  rssBytes?: number;
  /** timelineOffsetMs of the player's first minute: what timelineShiftMs is measured from. */
  timelineOriginMs?: number;
}): MinuteSummary {
  const { take, previous } = input;
  const offset = timelineOffsetMs(take.frags, previous?.wallMs ?? 0);
  const errorsByKind: Record<string, number> = {};
  for (const e of take.errors) {
    const kind = `${e.fatal ? 'FATAL ' : ''}${e.type}/${e.details}`;
    errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1;
  }
  // A recovery that made a new video element's counters start again counts from zero.
  const since = (now: number, before = 0) => (now >= before ? now - before : now);
  return {
    minute: input.minute,
    playing: take.playing,
    errorsByKind,
    stalls: input.stalls,
    droppedFrames: since(take.droppedFrames, previous?.droppedFrames),
    frames: since(take.totalFrames, previous?.totalFrames),
    ...(previous
      ? { playedS: take.currentTime - previous.currentTime, wallS: (take.wallMs - previous.wallMs) / 1000 }
      : {}),
    latencyS: stats(take.latencies),
    behindLiveS: stats(take.behindLive),
    minBufferAheadS: take.bufferAhead.length ? Math.min(...take.bufferAhead) : undefined,
    ...(offset !== undefined && input.timelineOriginMs !== undefined
      ? { timelineShiftMs: offset - input.timelineOriginMs }
      : {}),
    rules: input.rules,
    ...(input.rssBytes === undefined ? {} : { rssBytes: input.rssBytes }),
  };
}

const count = (byKind: Record<string, number>) => Object.values(byKind).reduce((a, b) => a + b, 0);
const kinds = (byKind: Record<string, number>) =>
  Object.entries(byKind)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${Math.round(ms)}`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** One line per minute (and one per halt under it). */
export function formatMinute(s: MinuteSummary): string {
  const errors = count(s.errorsByKind);
  const rules = count(s.rules);
  const stream = s.stalls.filter((x) => x.stream).length;
  const parts = [
    `minute ${String(s.minute).padStart(3)}`,
    s.playing ? 'playing' : 'NOT PLAYING',
    `errors ${errors}${errors ? ` (${kinds(s.errorsByKind)})` : ''}`,
    `stalls ${s.stalls.length} (stream ${stream})`,
    `dropped ${s.droppedFrames}/${s.frames} frames`,
    s.playedS === undefined || s.wallS === undefined
      ? 'played -'
      : `played ${s.playedS.toFixed(1)} s in ${s.wallS.toFixed(1)} s`,
    s.latencyS
      ? `latency ${s.latencyS.mean.toFixed(1)} s (${s.latencyS.min.toFixed(1)}-${s.latencyS.max.toFixed(1)})`
      : 'latency -',
    s.behindLiveS ? `behind live ${s.behindLiveS.mean.toFixed(1)} s (PDT)` : 'behind live -',
    s.minBufferAheadS === undefined ? 'buffer -' : `buffer ≥ ${s.minBufferAheadS.toFixed(1)} s`,
    s.timelineShiftMs === undefined ? 'timeline -' : `timeline ${signed(s.timelineShiftMs)} ms`,
    `rules ${rules}${rules ? ` (${kinds(s.rules)})` : ''}`,
    `server ${s.rssBytes === undefined ? '-' : mb(s.rssBytes)}`,
  ];
  const halts = s.stalls.length ? `\n${indent(describeStalls(s.stalls))}` : '';
  return parts.join(' | ') + halts;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

export interface SoakTotals {
  minutes: number;
  errorsByKind: Record<string, number>;
  stalls: number;
  streamStalls: number;
  droppedFrames: number;
  frames: number;
  rules: Record<string, number>;
  /** Mean latency of the first and of the last minute that had one: its growth over the run. */
  latencyFirstS?: number;
  latencyLastS?: number;
  behindLiveFirstS?: number;
  behindLiveLastS?: number;
  /** timelineShiftMs of the last minute that had one. */
  timelineShiftLastMs?: number;
  /** Media seconds played over the minutes that say, and those minutes' wall-clock seconds. */
  playedS: number;
  playedWallS: number;
  rssFirstBytes?: number;
  rssLastBytes?: number;
  minutesNotPlaying: number;
}

export function totals(minutes: readonly MinuteSummary[]): SoakTotals {
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
  };
  const errorsByKind: Record<string, number> = {};
  const rules: Record<string, number> = {};
  for (const m of minutes) {
    add(errorsByKind, m.errorsByKind);
    add(rules, m.rules);
  }
  const withLatency = minutes.filter((m) => m.latencyS);
  const withRss = minutes.filter((m) => m.rssBytes !== undefined);
  return {
    minutes: minutes.length,
    errorsByKind,
    stalls: minutes.reduce((n, m) => n + m.stalls.length, 0),
    streamStalls: minutes.reduce((n, m) => n + m.stalls.filter((s) => s.stream).length, 0),
    droppedFrames: minutes.reduce((n, m) => n + m.droppedFrames, 0),
    frames: minutes.reduce((n, m) => n + m.frames, 0),
    rules,
    playedS: minutes.reduce((n, m) => n + (m.playedS ?? 0), 0),
    playedWallS: minutes.reduce((n, m) => n + (m.wallS ?? 0), 0),
    behindLiveFirstS: minutes.find((m) => m.behindLiveS)?.behindLiveS?.mean,
    behindLiveLastS: minutes.findLast((m) => m.behindLiveS)?.behindLiveS?.mean,
    timelineShiftLastMs: minutes.findLast((m) => m.timelineShiftMs !== undefined)?.timelineShiftMs,
    latencyFirstS: withLatency[0]?.latencyS?.mean,
    latencyLastS: withLatency.at(-1)?.latencyS?.mean,
    rssFirstBytes: withRss[0]?.rssBytes,
    rssLastBytes: withRss.at(-1)?.rssBytes,
    minutesNotPlaying: minutes.filter((m) => !m.playing).length,
  };
}

/** The run's verdict: clean when nothing a viewer or RFC 8216 would object to happened. */
export const isClean = (t: SoakTotals): boolean =>
  count(t.errorsByKind) === 0 && t.streamStalls === 0 && count(t.rules) === 0 && t.minutesNotPlaying === 0;

export function formatTotals(t: SoakTotals): string {
  const errors = count(t.errorsByKind);
  const rules = count(t.rules);
  const lines = [
    `${t.minutes} minutes: ${isClean(t) ? 'CLEAN' : 'NOT CLEAN'}`,
    `errors ${errors}${errors ? ` (${kinds(t.errorsByKind)})` : ''}`,
    `stalls ${t.stalls} (stream ${t.streamStalls}), minutes not playing ${t.minutesNotPlaying}`,
    `dropped ${t.droppedFrames}/${t.frames} frames`,
    `rules ${rules}${rules ? ` (${kinds(t.rules)})` : ''}`,
  ];
  if (t.latencyFirstS !== undefined && t.latencyLastS !== undefined)
    lines.push(
      `latency ${t.latencyFirstS.toFixed(1)} s in the first minute, ${t.latencyLastS.toFixed(1)} s in the last (${(t.latencyLastS - t.latencyFirstS).toFixed(1)} s growth)`,
    );
  if (t.behindLiveFirstS !== undefined && t.behindLiveLastS !== undefined)
    lines.push(
      `behind live (PDT) ${t.behindLiveFirstS.toFixed(1)} s in the first minute, ${t.behindLiveLastS.toFixed(1)} s in the last (${(t.behindLiveLastS - t.behindLiveFirstS).toFixed(1)} s growth)`,
    );
  if (t.timelineShiftLastMs !== undefined)
    lines.push(
      `timeline ${signed(t.timelineShiftLastMs)} ms in the last minute: hls.js placed the stream's fragments that much later than their PDTs, against the first minute (the stream's own drift)`,
    );
  // A player that plays slower than the clock falls behind by the difference, whatever the stream does.
  if (t.playedWallS > 0)
    lines.push(
      `played ${t.playedS.toFixed(1)} s of media in ${t.playedWallS.toFixed(1)} s (the player ran ${(t.playedWallS - t.playedS).toFixed(1)} s slow)`,
    );
  if (t.rssFirstBytes !== undefined && t.rssLastBytes !== undefined)
    lines.push(`server memory ${mb(t.rssFirstBytes)} in the first minute, ${mb(t.rssLastBytes)} in the last`);
  return lines.join('\n');
}
