/**
 * The player's figures, each measured, none guessed: latency is hls.js's own distance to the live edge,
 * delay is the wall clock minus the program date-time (PDT) of the frame on screen, buffer is hls.js's
 * forward buffer, the measured bitrate is the bytes of the last fragments over their media duration
 * (next to the bitrate the playlist declares). A figure that cannot be measured is undefined ("–"),
 * never negative.
 */
import type Hls from 'hls.js';

export interface Stats {
  /** Seconds behind the live edge (hls.js `latency`). */
  latency?: number;
  /** Seconds between the wall clock and the PDT of the frame on screen (hls.js `playingDate`). */
  delay?: number;
  /** Seconds buffered ahead of the playhead. */
  buffer?: number;
  /** kbit/s the variant declares (BANDWIDTH). */
  declaredKbps?: number;
  /** kbit/s of the fragments loaded lately: their bytes over their media seconds. */
  measuredKbps?: number;
  /** kbit/s hls.js estimates the network gives (its ABR estimate). */
  downloadKbps?: number;
  /** The PDT of the frame on screen, ms since the epoch. */
  playingDateMs?: number;
  /** The playhead (seconds of media) these figures were read at: buffer and latency move with it. */
  position?: number;
  /** The wall clock (ms since the epoch) they were read at: delay moves with it. */
  readAtMs?: number;
}

/** One loaded fragment: its size and its media duration. */
export interface FragSample {
  bytes: number;
  seconds: number;
}

/** How many recent fragments the measured bitrate averages. */
export const MEASURED_FRAGMENTS = 5;

export const measuredKbps = (frags: readonly FragSample[]): number | undefined => {
  const recent = frags.slice(-MEASURED_FRAGMENTS);
  const seconds = recent.reduce((s, f) => s + f.seconds, 0);
  const bytes = recent.reduce((s, f) => s + f.bytes, 0);
  return seconds > 0 && bytes > 0 ? (bytes * 8) / seconds / 1000 : undefined;
};

/** A figure to show: a finite number not below zero, or undefined. */
export const measured = (v: number | null | undefined): number | undefined =>
  v !== null && v !== undefined && Number.isFinite(v) && v >= 0 ? v : undefined;

/** Seconds buffered ahead in the range that holds the playhead (0 outside every range). */
export function bufferAhead(buffered: TimeRanges, t: number): number {
  for (let i = 0; i < buffered.length; i++)
    if (buffered.start(i) <= t && t < buffered.end(i)) return buffered.end(i) - t;
  return 0;
}

export function readStats(
  hls: Hls | undefined,
  video: HTMLVideoElement,
  frags: readonly FragSample[],
  nowMs: number,
): Stats {
  const position = video.currentTime;
  if (!hls) return { buffer: bufferAhead(video.buffered, position), position, readAtMs: nowMs };
  const level = hls.currentLevel >= 0 ? hls.levels[hls.currentLevel] : undefined;
  const live = hls.levels.some((l) => l.details?.live);
  const playing = hls.playingDate?.getTime();
  return {
    // hls.js answers 0 before it has a playlist: not a measurement.
    latency: live && hls.latency > 0 ? measured(hls.latency) : undefined,
    delay: playing === undefined ? undefined : measured((nowMs - playing) / 1000),
    buffer: measured(hls.mainForwardBufferInfo?.len),
    declaredKbps: level ? level.bitrate / 1000 : undefined,
    measuredKbps: measuredKbps(frags),
    downloadKbps: measured(hls.bandwidthEstimate / 1000),
    playingDateMs: playing,
    position,
    readAtMs: nowMs,
  };
}
