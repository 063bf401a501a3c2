/**
 * One playback of a channel in hls.js, with the page's truth about it: the phase (starting while the
 * engine has not picked a new channel up, playing, recovering after a fatal error, failed), each
 * distinct error once, stalls, the fragments measured, and the audio and subtitle tracks. Every retry
 * waits a backoff: a channel still starting is asked again every few seconds, a fatal media error is
 * recovered with hls.js's recoverMediaError (then swapAudioCodec) no faster than the backoff allows,
 * and after MAX_MEDIA_RECOVERIES in a row the page says playback failed instead of looping.
 */
import Hls, { type ErrorData } from 'hls.js';
import { type Backoff, backoffMs } from './backoff';
import type { FragSample } from './player-stats';

export type Phase =
  | { kind: 'loading' }
  /** The engine answered 404 or 503 (channel_starting) and the channel never played yet. */
  | { kind: 'starting'; status: number; retryAt?: number }
  | { kind: 'playing' }
  | { kind: 'recovering'; what: string; retryAt: number; attempt: number }
  | { kind: 'failed'; what: string };

export interface CountedError {
  key: string;
  /** networkError/levelLoadError 502, with "(fatal)" when hls.js stopped for it. */
  text: string;
  fatal: boolean;
  atMs: number;
}

export interface Track {
  id: number;
  label: string;
  lang?: string;
}

const STARTING_RETRY: Backoff = { baseMs: 500, maxMs: 8000 };
const RECOVERY: Backoff = { baseMs: 1000, maxMs: 16_000 };
export const MAX_MEDIA_RECOVERIES = 6;
/** Playing this long without a fatal error, the next one starts the recoveries over. */
const RECOVERED_AFTER_MS = 30_000;
const SUBTITLE_RESTART: Backoff = { baseMs: 500, maxMs: 8000 };
/** Subtitle fragments failed in a row, each followed by a fresh load of the track, before giving up. */
export const MAX_SUBTITLE_RESTARTS = 6;

/** hls.js reports stalls and its own gap jumps as errors; the page counts them as stalls, not errors. */
const STALL_DETAILS = new Set<string>([
  Hls.ErrorDetails.BUFFER_STALLED_ERROR,
  Hls.ErrorDetails.BUFFER_NUDGE_ON_STALL,
  Hls.ErrorDetails.BUFFER_SEEK_OVER_HOLE,
]);

/** The engine's playlists: what it answers 404 or 503 for while a channel is starting. */
const PLAYLIST_LOADS = new Set<string>([
  Hls.ErrorDetails.MANIFEST_LOAD_ERROR,
  Hls.ErrorDetails.LEVEL_LOAD_ERROR,
  Hls.ErrorDetails.AUDIO_TRACK_LOAD_ERROR,
  Hls.ErrorDetails.SUBTITLE_LOAD_ERROR,
]);

const statusOf = (data: ErrorData): number | undefined => {
  const code = data.response?.code;
  return typeof code === 'number' && code > 0 ? code : undefined;
};

/** The same failure reported again (hls.js retrying one fragment or playlist) has the same key. */
export const errorKey = (data: ErrorData): string =>
  [
    data.type,
    data.details,
    data.frag ? `${data.frag.type}:${data.frag.level}:${data.frag.sn}` : (data.url ?? ''),
  ]
    .concat(data.fatal ? 'fatal' : '')
    .join('|');

const describe = (data: ErrorData): string => {
  const status = statusOf(data);
  return `${data.details}${status ? ` ${status}` : ''}${data.fatal ? ' (fatal)' : ''}`;
};

const trackLabel = (t: { name: string; lang?: string }) =>
  t.lang && t.name && t.name !== t.lang ? `${t.name} (${t.lang})` : t.name || t.lang || 'unnamed';

export class PlayerSession {
  readonly hls: Hls;
  phase: Phase = { kind: 'loading' };
  readonly errors: CountedError[] = [];
  stalls = 0;
  readonly frags: FragSample[] = [];
  private readonly seen = new Set<string>();
  private played = false;
  private startAttempts = 0;
  private mediaRecoveries = 0;
  private lastFatalAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private subtitleRestarts = 0;
  private subtitleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly started = performance.now();

  constructor(
    private readonly src: string,
    private readonly video: HTMLVideoElement,
    private readonly changed: () => void,
  ) {
    this.hls = new Hls({ lowLatencyMode: false });
    const hls = this.hls;
    hls.on(Hls.Events.ERROR, (_e, data) => this.onError(data));
    hls.on(Hls.Events.FRAG_LOADED, (_e, { frag }) => {
      if (frag.type !== 'main') return;
      this.frags.push({ bytes: frag.stats.loaded, seconds: frag.duration });
      if (this.frags.length > 50) this.frags.splice(0, this.frags.length - 50);
    });
    hls.on(Hls.Events.MANIFEST_PARSED, () => this.setPhase({ kind: 'playing' }));
    hls.on(Hls.Events.SUBTITLE_FRAG_PROCESSED, (_e, { success }) => this.onSubtitleFrag(success));
    // Media flowing again after a recovery: playing (the video may never have stopped).
    hls.on(Hls.Events.FRAG_BUFFERED, () => {
      if (this.phase.kind === 'recovering') this.setPhase({ kind: 'playing' });
    });
    for (const event of [
      Hls.Events.AUDIO_TRACKS_UPDATED,
      Hls.Events.AUDIO_TRACK_SWITCHED,
      Hls.Events.SUBTITLE_TRACKS_UPDATED,
      Hls.Events.SUBTITLE_TRACK_SWITCH,
    ])
      hls.on(event, () => this.changed());
    // A test (or a curious operator) may watch hls.js from its first request: window.onairHlsCreated.
    (globalThis as { onairHlsCreated?: (hls: Hls) => void }).onairHlsCreated?.(hls);
    video.addEventListener('playing', this.onPlaying);
    video.addEventListener('waiting', this.onWaiting);
    hls.loadSource(src);
    hls.attachMedia(video);
    void video.play().catch(() => undefined);
  }

  get audioTracks(): Track[] {
    return this.hls.audioTracks.map((t) => ({ id: t.id, label: trackLabel(t), lang: t.lang }));
  }
  get audioTrack(): number {
    return this.hls.audioTrack;
  }
  set audioTrack(id: number) {
    this.hls.audioTrack = id;
  }
  get subtitleTracks(): Track[] {
    return this.hls.subtitleTracks.map((t) => ({ id: t.id, label: trackLabel(t), lang: t.lang }));
  }
  get subtitleTrack(): number {
    return this.hls.subtitleTrack;
  }
  /** -1 turns subtitles off. */
  set subtitleTrack(id: number) {
    this.hls.subtitleDisplay = id >= 0;
    this.hls.subtitleTrack = id;
  }

  destroy(): void {
    clearTimeout(this.timer);
    clearTimeout(this.subtitleTimer);
    this.video.removeEventListener('playing', this.onPlaying);
    this.video.removeEventListener('waiting', this.onWaiting);
    this.hls.destroy();
  }

  private readonly onPlaying = () => {
    this.played = true;
    if (this.phase.kind !== 'failed') this.setPhase({ kind: 'playing' });
  };

  /** 'waiting' after playback began is a stall (a seek's wait is not). */
  private readonly onWaiting = () => {
    if (this.played && !this.video.seeking) {
      this.stalls++;
      this.changed();
    }
  };

  private setPhase(phase: Phase) {
    this.phase = phase;
    this.changed();
  }

  private later(ms: number, run: () => void) {
    clearTimeout(this.timer);
    this.timer = setTimeout(run, ms);
  }

  private onError(data: ErrorData) {
    if (STALL_DETAILS.has(data.details)) return; // counted from the video's own 'waiting'
    const status = statusOf(data);
    // A channel created a moment ago: the engine answers 404 until it knows it, 503 channel_starting
    // until its first item is planned. That is "starting", not an error.
    if (!this.played && PLAYLIST_LOADS.has(data.details) && (status === 404 || status === 503)) {
      if (data.fatal) {
        const wait = backoffMs(this.startAttempts++, STARTING_RETRY);
        this.setPhase({ kind: 'starting', status, retryAt: Date.now() + wait });
        this.later(wait, () => this.hls.loadSource(this.src));
      } else this.setPhase({ kind: 'starting', status }); // hls.js retries this one itself
      return;
    }
    this.count(data);
    if (!data.fatal) return;
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR) this.recoverMedia(data);
    else if (data.type === Hls.ErrorTypes.NETWORK_ERROR) this.reload(data);
    else this.setPhase({ kind: 'failed', what: describe(data) });
  }

  private count(data: ErrorData) {
    const key = errorKey(data);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.errors.push({
      key,
      text: describe(data),
      fatal: data.fatal,
      atMs: performance.now() - this.started,
    });
    this.changed();
  }

  private recoverMedia(data: ErrorData) {
    const now = Date.now();
    if (now - this.lastFatalAt > RECOVERED_AFTER_MS) this.mediaRecoveries = 0;
    this.lastFatalAt = now;
    const attempt = ++this.mediaRecoveries;
    if (attempt > MAX_MEDIA_RECOVERIES) {
      this.setPhase({ kind: 'failed', what: describe(data) });
      return;
    }
    const wait = attempt === 1 ? 0 : backoffMs(attempt - 2, RECOVERY);
    this.setPhase({ kind: 'recovering', what: describe(data), retryAt: now + wait, attempt });
    this.later(wait, () => {
      // The usual hls.js recovery: first a plain recovery, then with the audio codec swapped.
      if (attempt % 2 === 0) this.hls.swapAudioCodec();
      this.hls.recoverMediaError();
    });
  }

  /**
   * hls.js 1.7.4 fails a WebVTT fragment that waits for the video's timestamps of its discontinuity
   * when another discontinuity's come first (a join whose first seconds cross from a slate into a
   * CMAF entry: timeline-controller's onInitPtsFound), and then loads no subtitle fragment again (its
   * subtitle-stream-controller stays in FRAG_LOADING). Selecting the track again loads it afresh, once
   * the video has caught up; a WebVTT that never parses is given up after MAX_SUBTITLE_RESTARTS.
   */
  private onSubtitleFrag(success: boolean) {
    if (success) {
      this.subtitleRestarts = 0;
      return;
    }
    const track = this.hls.subtitleTrack;
    if (track < 0 || this.subtitleRestarts >= MAX_SUBTITLE_RESTARTS) return;
    clearTimeout(this.subtitleTimer);
    this.subtitleTimer = setTimeout(
      () => {
        if (this.hls.subtitleTrack !== track) return; // the viewer chose another meanwhile
        this.hls.subtitleTrack = -1;
        this.hls.subtitleTrack = track;
      },
      backoffMs(this.subtitleRestarts++, SUBTITLE_RESTART),
    );
  }

  private reload(data: ErrorData) {
    const now = Date.now();
    if (now - this.lastFatalAt > RECOVERED_AFTER_MS) this.mediaRecoveries = 0;
    this.lastFatalAt = now;
    const attempt = ++this.mediaRecoveries;
    const wait = backoffMs(attempt - 1, RECOVERY);
    this.setPhase({ kind: 'recovering', what: describe(data), retryAt: now + wait, attempt });
    const manifest = data.details === Hls.ErrorDetails.MANIFEST_LOAD_ERROR;
    this.later(wait, () => (manifest ? this.hls.loadSource(this.src) : this.hls.startLoad()));
  }
}
