/**
 * Follows a live rendition across reloads, as a player that never stalls would, and measures how the
 * media it is given keeps time with the clock. Every segment is counted once, in media-sequence order;
 * the live edge is the first segment's start plus the EXTINF of all segments counted (what a player
 * has been given to play). For an engine that plays exactly in real time its lag behind the clock stays
 * within [0, one segment) however long it runs; one playing 5 % fast runs ahead by 72 minutes a day.
 * The source durations of the same segments show what rounding them to milliseconds adds.
 */
import type { LivePlaylist } from './live-playlist';

export interface ClockKeeping {
  reloads: number;
  segments: number;
  /** Media sequence numbers that were never listed (a player would have skipped them). */
  skipped: number;
  /** Reloads whose last segment was older than the previous reload's. */
  rewound: number;
  /** Clock minus live edge by served EXTINF, ms: first and last reload, and the range over the run. */
  firstLagMs: number;
  lastLagMs: number;
  minLagMs: number;
  maxLagMs: number;
  /** Largest gap between a segment's EXT-X-PROGRAM-DATE-TIME and the EXTINF sum before it. */
  maxPdtErrorMs: number;
  /**
   * Source media duration minus served EXTINF over the run: the engine keeps whole milliseconds, so a
   * player playing the real media drifts by this much on top of the (bounded) lag above.
   */
  roundingMs: number;
  /**
   * Served drift: mean lag over the last span minus mean lag over the first span (a quarter of the run,
   * at most an hour). Reloads at a period that is not a multiple of the segment length sample every
   * phase, so the means cancel the saw-tooth and leave the trend.
   */
  driftMs: number;
  /** driftMs minus roundingMs: how far behind the clock a player of the real media would end up. */
  mediaDriftMs: number;
}

/** The source (real media) duration of a served segment; servedMs when it is not known. */
export type SourceDuration = (uri: string, servedMs: number) => number;

export class ClockKeeper {
  private originMs = Number.NaN;
  private lastIndex = Number.NaN;
  private mediaMs = 0;
  private servedMs = 0;
  private readonly lags: Array<{ atMs: number; lagMs: number }> = [];
  private readonly k: Omit<ClockKeeping, 'driftMs' | 'mediaDriftMs'> = {
    reloads: 0,
    segments: 0,
    skipped: 0,
    rewound: 0,
    firstLagMs: Number.NaN,
    lastLagMs: Number.NaN,
    minLagMs: Number.POSITIVE_INFINITY,
    maxLagMs: Number.NEGATIVE_INFINITY,
    maxPdtErrorMs: 0,
    roundingMs: 0,
  };

  constructor(private readonly sourceMs: SourceDuration = (_uri, servedMs) => servedMs) {}

  observe(nowMs: number, playlist: LivePlaylist): void {
    const first = playlist.segments[0];
    if (!first) return;
    if (Number.isNaN(this.originMs)) {
      this.originMs = first.pdtMs;
      this.lastIndex = playlist.mediaSequence - 1;
    }
    const k = this.k;
    k.reloads++;
    const lastListed = playlist.mediaSequence + playlist.segments.length - 1;
    if (lastListed < this.lastIndex) k.rewound++;
    playlist.segments.forEach((s, n) => {
      const index = playlist.mediaSequence + n;
      if (index <= this.lastIndex) return;
      k.skipped += index - this.lastIndex - 1;
      const expectedPdt = this.originMs + this.servedMs;
      k.maxPdtErrorMs = Math.max(k.maxPdtErrorMs, Math.abs(s.pdtMs - expectedPdt));
      this.mediaMs += this.sourceMs(s.uri, s.durationMs);
      this.servedMs += s.durationMs;
      this.lastIndex = index;
      k.segments++;
    });
    const lag = nowMs - (this.originMs + this.servedMs);
    if (Number.isNaN(k.firstLagMs)) k.firstLagMs = lag;
    k.lastLagMs = lag;
    k.minLagMs = Math.min(k.minLagMs, lag);
    k.maxLagMs = Math.max(k.maxLagMs, lag);
    k.roundingMs = this.mediaMs - this.servedMs;
    this.lags.push({ atMs: nowMs, lagMs: lag });
  }

  result(): ClockKeeping {
    const first = this.lags[0];
    const last = this.lags[this.lags.length - 1];
    let driftMs = 0;
    if (first && last) {
      const spanMs = Math.min(3600_000, (last.atMs - first.atMs) / 4);
      const mean = (from: number, to: number) => {
        const xs = this.lags.filter((l) => l.atMs >= from && l.atMs <= to).map((l) => l.lagMs);
        return xs.reduce((a, b) => a + b, 0) / xs.length;
      };
      driftMs = mean(last.atMs - spanMs, last.atMs) - mean(first.atMs, first.atMs + spanMs);
    }
    return { ...this.k, driftMs, mediaDriftMs: driftMs - this.k.roundingMs };
  }
}
