/**
 * Outside-in checks of a live HLS stream, for engine tests: a real client (ffmpeg) playing it in real
 * time, and a poller that holds consecutive reloads of a media playlist to the RFC 8216 live rules.
 * Neither uses the engine's code.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  isMasterPlaylist,
  type MediaPlaylist,
  parseMasterPlaylist,
  parseMediaPlaylist,
} from './hls-playlist';
import { checkReloads, type RuleOptions, type Violation } from './live-rules';

export {
  checkPlaylist,
  checkReloads,
  compareReloads,
  type Rule,
  type RuleOptions,
  type Violation,
} from './live-rules';

export interface PlayOptions {
  /** Media seconds to play (`-t`). */
  seconds: number;
  /** Read at the stream's own pace (`-re`), as a viewer does, rather than as fast as the playlist allows. Default true. */
  realtime?: boolean;
  /** Kill ffmpeg after this long. Default: twice `seconds` plus 30 s. */
  timeoutMs?: number;
  /** A single HTTP request may hang this long before it counts as failed. Default 10 s. */
  requestTimeoutMs?: number;
  /**
   * Streams to play, as `-map` arguments (`0:v:0`, `0:a:0`). Default: the first variant's video and its
   * first audio, as a player plays one variant (ONE_VARIANT).
   */
  maps?: string[];
  /** More input options, placed before `-i`. */
  inputArgs?: string[];
  /** Default /usr/bin/ffmpeg (5.x: its HLS demuxer reports media sequence errors). */
  ffmpegPath?: string;
}

export interface PlayResult {
  /** Played the requested seconds, exited 0, and printed no error. */
  ok: boolean;
  exitCode: number | null;
  /** What a viewer would notice: HTTP failures, missing segments, media sequence errors, decode errors, a stall. */
  errors: string[];
  /**
   * Other warnings. ffmpeg's HLS demuxer ignores EXT-X-DISCONTINUITY and reads segments as one
   * stream, so every discontinuity shows here as "Packet corrupt" / "DTS ... out of order": expected
   * at an item boundary, a bug anywhere else.
   */
  warnings: string[];
  /** Media seconds ffmpeg got through. */
  playedSeconds: number;
  timedOut: boolean;
  /** The last few kB of ffmpeg's stderr, for a failure message. */
  stderrTail: string;
}

/**
 * Timestamp complaints, at warning or error level, that ffmpeg prints at every discontinuity: its HLS
 * demuxer reads segments as one stream, and its muxer then sees audio overlap by a frame where ffmpeg
 * re-bases the timeline. Reported as warnings; checkSegmentTimestamps judges discontinuities properly.
 */
const TIMESTAMP_JUMP_PATTERNS: readonly RegExp[] = [
  /Packet corrupt/,
  /corrupt input packet/,
  /DTS \d+ < \d+ out of order/,
  /non monotonically increasing dts/,
  /Non-monotonous DTS/,
];

/** Warning-level messages that still mean a viewer saw something break. */
const FAILURE_PATTERNS: readonly RegExp[] = [
  /HTTP error/i,
  /Server returned/i,
  /Failed to open segment/,
  /Failed to reload playlist/,
  /Failed to open an initialization section/,
  /Media sequence changed unexpectedly/,
  /segments ahead, expired from playlists/,
  /Empty playlist/,
  /Invalid data found/,
  /error while decoding/i,
  /non-existing PPS/,
  /no frame!/,
  /Connection refused|timed out/i,
];

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('close', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A test runner that dies mid-play must not leave ffmpeg reading the stream forever.
  process.once('exit', () => {
    for (const c of running) c.kill('SIGKILL');
  });
}

/** Sorts ffmpeg's stderr lines (with `-loglevel level+warning`) into failures and other warnings. */
export function classifyFfmpegOutput(stderr: string): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const raw of stderr.split(/\r?\n/)) {
    const line = raw.replace(/ @ 0x[0-9a-f]+/g, '').trim();
    const level = /\[(panic|fatal|error|warning)\]/.exec(line)?.[1];
    if (!level) continue;
    const failure = level === 'warning' ? FAILURE_PATTERNS.some((p) => p.test(line)) : true;
    if (failure && !TIMESTAMP_JUMP_PATTERNS.some((p) => p.test(line))) errors.push(line);
    else warnings.push(line);
  }
  return { errors, warnings };
}

/**
 * The first variant's video and first audio (its own, or its group's first rendition). ffmpeg's own
 * choice is the best video and the best audio of any variant: two variants' playlists, which no player
 * reads together. Its HLS demuxer interleaves playlists by their raw timestamps, which every
 * discontinuity resets in each playlist at its own moment: after a seam one playlist is read alone
 * until its timestamps pass the other's, ffmpeg's `-re` pacing and timestamp re-basing fight over it,
 * and the run fell 100 s behind real time (CI, live mixing); 90 s of items alternating took 133 s (92 s
 * reading one variant). The program number is the variant's index.
 */
export const ONE_VARIANT: readonly string[] = ['0:p:0:v:0?', '0:p:0:a:0?'];

export function ffmpegPlayArgs(url: string, options: PlayOptions): string[] {
  const { seconds, realtime = true, requestTimeoutMs = 10_000, maps = ONE_VARIANT, inputArgs = [] } = options;
  return [
    ...'-hide_banner -nostdin -nostats -loglevel level+warning'.split(' '),
    ...(realtime ? ['-re'] : []),
    // A request that hangs fails instead of hanging the player.
    ...['-rw_timeout', String(requestTimeoutMs * 1000)],
    // A playlist that stops advancing, or cannot be reloaded, ends the run (then "played only ...").
    // ffmpeg also ends the input, silently, when the next segment is still unlisted after max_reload
    // reloads (half a target duration apart): ffmpeg's probe reads ~5 s ahead, so it plays close to the
    // live edge, and 3 reloads could end a run when a loaded machine lists a segment 2-3 s late. 10
    // reloads still ends a stalled playlist within seconds.
    ...'-m3u8_hold_counters 10 -max_reload 10'.split(' '),
    ...inputArgs,
    ...['-i', url],
    ...maps.flatMap((m) => ['-map', m]),
    ...['-t', String(seconds)],
    // Decode everything (a broken segment shows as a decode error), write nothing; report progress.
    ...'-f null - -progress pipe:1'.split(' '),
  ];
}

/**
 * Plays a (live) HLS URL with ffmpeg for `seconds` of media, in real time by default, and reports what
 * went wrong. ffmpeg 5.1 follows a live playlist by itself: it starts three segments from the live
 * edge and reloads the playlist as it runs out of segments.
 */
export function playWithFfmpeg(url: string, options: PlayOptions): Promise<PlayResult> {
  const { seconds, timeoutMs = seconds * 2000 + 30_000, ffmpegPath = '/usr/bin/ffmpeg' } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, ffmpegPlayArgs(url, options), { stdio: ['ignore', 'pipe', 'pipe'] });
    killOnExit(child);
    let stderr = '';
    let playedUs = 0;
    let timedOut = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      for (const match of chunk.toString().matchAll(/out_time_us=(\d+)/g))
        playedUs = Math.max(playedUs, Number(match[1]));
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${ffmpegPath}: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const { errors, warnings } = classifyFfmpegOutput(stderr);
      const playedSeconds = playedUs / 1e6;
      if (timedOut) errors.push(`ffmpeg still running after ${timeoutMs} ms: killed (stream stalled?)`);
      // ffmpeg cuts at a frame boundary; anything a frame or two short is a full play.
      else if (playedSeconds < seconds - 0.1)
        errors.push(`played only ${playedSeconds.toFixed(2)} s of ${seconds} s`);
      if (!timedOut && code !== 0) errors.push(`ffmpeg exited with code ${code}`);
      resolve({
        ok: errors.length === 0,
        exitCode: code,
        errors,
        warnings,
        playedSeconds,
        timedOut,
        stderrTail: stderr.slice(-4000),
      });
    });
  });
}

export interface PollOptions extends RuleOptions {
  /** Number of fetches. */
  reloads: number;
  /** Pause between fetches. */
  intervalMs: number;
  /** Per-request timeout. Default 5 s. */
  requestTimeoutMs?: number;
}

async function fetchText(url: string, timeoutMs: number): Promise<string> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { 'cache-control': 'no-cache' },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

/**
 * Fetches a live media playlist `reloads` times, `intervalMs` apart, and returns every RFC 8216 live
 * rule broken (see live-rules.ts), alone or between consecutive reloads. A failed fetch or an
 * unparseable playlist is a violation too; the reloads around it are still compared with each other.
 */
export async function checkLivePlaylistRules(url: string, options: PollOptions): Promise<Violation[]> {
  const { reloads, intervalMs, requestTimeoutMs = 5000 } = options;
  const violations: Violation[] = [];
  const fetched: { playlist: MediaPlaylist; reload: number; at: number }[] = [];
  for (let reload = 0; reload < reloads; reload++) {
    if (reload > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
    let text: string;
    try {
      text = await fetchText(url, requestTimeoutMs);
    } catch (e) {
      violations.push({ rule: 'fetch-failed', reload, message: `${url}: ${(e as Error).message}` });
      continue;
    }
    try {
      if (isMasterPlaylist(text)) throw new Error('this is a master playlist; pass a media playlist URL');
      fetched.push({ playlist: parseMediaPlaylist(text), reload, at: Date.now() });
    } catch (e) {
      violations.push({ rule: 'malformed', reload, message: `${url}: ${(e as Error).message}` });
    }
  }

  for (const v of checkReloads(
    fetched.map((f) => f.playlist),
    options,
  )) {
    violations.push({ ...v, reload: fetched[v.reload ?? 0]?.reload ?? 0 });
  }

  const first = fetched[0];
  const last = fetched.at(-1);
  if (first && last && last.at - first.at >= 3 * first.playlist.targetDuration * 1000) {
    const end = (p: MediaPlaylist) => p.mediaSequence + p.segments.length;
    if (end(last.playlist) <= end(first.playlist)) {
      violations.push({
        rule: 'no-progress',
        reload: last.reload,
        message: `no new segment in ${((last.at - first.at) / 1000).toFixed(1)} s (target duration ${first.playlist.targetDuration} s)`,
      });
    }
  }
  return violations.sort((a, b) => (a.reload ?? 0) - (b.reload ?? 0));
}

/** Absolute URLs of every media playlist a master playlist names: variants, then renditions with a URI. */
export async function listMediaPlaylists(masterUrl: string, requestTimeoutMs = 5000): Promise<string[]> {
  const master = parseMasterPlaylist(await fetchText(masterUrl, requestTimeoutMs));
  const uris = [
    ...master.variants.map((v) => v.uri),
    ...master.renditions.flatMap((r) => (r.uri ? [r.uri] : [])),
  ];
  return [...new Set(uris.map((uri) => new URL(uri, masterUrl).toString()))];
}
