/**
 * Plays an HLS URL the way a viewer's browser does: hls.js in headless Chromium (Playwright), muted,
 * default live configuration. A tiny page (browser-page/) records hls.js errors, media element events,
 * fragments and `video.currentTime` over time; `summarizePlayback` turns that record into a verdict
 * a test can assert on. ffmpeg (hls-client.ts) ignores EXT-X-DISCONTINUITY; hls.js does not, so this is
 * the check that a channel survives VOD changes in a real player.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { readOptionalString, readString } from '../../core/env';
import {
  type BufferedFrag,
  describeErrors,
  excuseGivenUpHoles,
  type HlsErrorEvent,
  isOwnAbort,
  type JudgedStall,
  judgeStalls,
  playersHaltSeconds,
  type StallBuffers,
} from './stall-kinds';

export { describeErrors, type HlsErrorEvent, isSegmentLoadError } from './stall-kinds';

export const CHROMIUM_PATH = readString('CHROMIUM_PATH', '/usr/bin/chromium');

export const chromiumAvailable = (): boolean => existsSync(CHROMIUM_PATH);

/** For a suite's name: why its browser tests are skipped on this machine ('' when they run). */
export const chromiumSkipReason = (): string =>
  chromiumAvailable() ? '' : ` (skipped: no Chromium at ${CHROMIUM_PATH})`;

/**
 * A browser for one play or one console session. With `CHROMIUM_ENDPOINT` set (a Playwright browser
 * server's endpoint; the test run's own, run/shared-browser.ts) it connects to that Chromium, else it
 * launches one. Its `close()` closes what it opened: a connection closes only its own contexts. When
 * the run's Chromium died or hangs (a working one answers in milliseconds), this play launches its own,
 * saying so, rather than fail, as would every later play of the run.
 */
export async function openChromium(endpoint = readOptionalString('CHROMIUM_ENDPOINT')): Promise<Browser> {
  if (endpoint) {
    try {
      return await chromium.connect(endpoint, { timeout: 30_000 });
    } catch (err) {
      console.warn(`the run's Chromium (${endpoint}) did not answer, launching one for this play: ${err}`);
    }
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** What hls.js transmuxes TS into (fMP4): without it nothing plays. */
const REQUIRED_MSE_TYPE = 'video/mp4; codecs="avc1.64001e,mp4a.40.2"';

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

const PAGE_DIR = path.join(import.meta.dirname, 'browser-page');
const HLS_JS = path.resolve(import.meta.dirname, '../../node_modules/hls.js/dist/hls.min.js');

export interface MediaEventRecord {
  atMs: number;
  type: string;
  currentTime: number;
  message?: string;
}

export interface PlaybackSample {
  atMs: number;
  currentTime: number;
  bufferedEnd: number | null;
  paused: boolean;
  readyState: number;
  /** hls.js's `latency`: seconds behind the live edge (0 before its first playlist). */
  latency?: number;
}

export interface FragRecord {
  atMs: number;
  sn: number | string;
  /** hls.js's discontinuity counter: it changes where the playlist had EXT-X-DISCONTINUITY. */
  cc: number;
  level: number;
  url: string;
  /** Where the fragment starts on the player's media timeline, seconds. */
  start?: number;
  /** Its EXT-X-PROGRAM-DATE-TIME as hls.js read it, Unix ms (null without one). */
  programDateTimeMs?: number | null;
}

/** Everything the page recorded (window.__report). */
export interface RawBrowserReport {
  src: string;
  hlsVersion: string;
  hlsSupported: boolean;
  firstPlayingAtMs: number | null;
  errors: HlsErrorEvent[];
  mediaEvents: MediaEventRecord[];
  samples: PlaybackSample[];
  levels: { atMs: number; level: number }[];
  frags: FragRecord[];
  pageErrors: string[];
  /** hls.js's audio tracks (AUDIO_TRACKS_UPDATED). */
  audioTracks: { lang: string | null; name: string }[];
  /** Audio fragments buffered: of which track language, starting where, at what currentTime. */
  audioFrags: { atMs: number; lang: string | null; start: number; currentTime: number }[];
  /** When the page switched the audio track (PlayInBrowserOptions.audioSwitch). */
  audioSwitch?: { atMs: number; currentTime: number };
  /** The cues on screen (the showing text track's active cues), sampled with the playhead. */
  cues: { atMs: number; lang: string; text: string; currentTime: number }[];
  /** WebVTT fragments hls.js processed (SUBTITLE_FRAG_PROCESSED). */
  subtitleFrags: { atMs: number; success: boolean; url: string | null }[];
  /** Each SourceBuffer's ranges at every 'waiting' and 'stalled' after the first 'playing'. */
  stallBuffers?: StallBuffers[];
  /** Every fragment buffered, with when it was published (PDT + duration) and buffered. */
  bufferedFrags?: BufferedFrag[];
  /** hls.js's interstitial events (started, assetStarted, assetEnded, ended, primaryResumed...). */
  interstitials: InterstitialRecord[];
  /** Every media playlist hls.js loaded (LEVEL_LOADED): live or not, EVENT/VOD, its first and last sn. */
  levelLoads?: LevelLoadRecord[];
}

export interface LevelLoadRecord {
  atMs: number;
  level: number;
  /** hls.js's `details.live`: false once the playlist has EXT-X-ENDLIST. */
  live: boolean;
  /** EXT-X-PLAYLIST-TYPE (VOD, EVENT) or null. */
  type: string | null;
  startSN: number;
  endSN: number;
  fragments: number;
}

export interface InterstitialRecord {
  atMs: number;
  /** updated, started, assetStarted, assetEnded, assetError, ended, primaryResumed. */
  type: string;
  /** The EXT-X-DATERANGE ID (for 'updated': all the IDs hls.js knows, space-separated). */
  id: string | null;
  assetUri: string | null;
  currentTime: number;
  error: string | null;
}

export interface BrowserPlayback {
  /** The video fired 'playing' at least once. */
  started: boolean;
  errors: HlsErrorEvent[];
  fatalErrors: HlsErrorEvent[];
  /** 'waiting' or 'stalled' events after the first 'playing': playback halted for want of data. */
  stalls: number;
  /** Each halt judged (stall-kinds.ts): a hole or a late fragment is the stream's, the rest the player's. */
  judgedStalls: JudgedStall[];
  /** The halts that were the stream's fault: a hole in a track at the playhead, or a fragment published late. */
  streamStalls: JudgedStall[];
  /** currentTime when playback first started, and when it was judged. */
  currentTimeStart: number;
  currentTimeEnd: number;
  /** currentTimeEnd - currentTimeStart. */
  playedSeconds: number;
  /** Seconds the playhead stood still in halts judged the player's (`playersHaltSeconds`). */
  playersHaltSeconds: number;
  /** Wall-clock seconds from the first 'playing' to the last sample. */
  wallSeconds: number;
  /** Quality changes after the first level was chosen. */
  levelSwitches: number;
  /** Times playback entered a fragment with another discontinuity counter (a VOD/preroll boundary). */
  discontinuitiesCrossed: number;
  /** Seeks after the first 'playing' (hls.js jumps gaps and re-syncs to the live edge by seeking). */
  seeks: number;
  /** Uncaught page errors, console errors and a refused video.play(). */
  pageErrors: string[];
  /** The page's full record, for a failure message. */
  raw: RawBrowserReport;
}

/** Judges what the page recorded; pure. */
export function summarizePlayback(raw: RawBrowserReport): BrowserPlayback {
  const playingAt = raw.firstPlayingAtMs;
  const started = playingAt !== null;
  const afterStart = <T extends { atMs: number }>(xs: T[]) =>
    started ? xs.filter((x) => x.atMs > playingAt) : [];
  const firstPlaying = raw.mediaEvents.find((e) => e.type === 'playing');
  const last = raw.samples.at(-1);
  const currentTimeStart = firstPlaying?.currentTime ?? 0;
  const currentTimeEnd = started && last ? last.currentTime : currentTimeStart;

  const judgedStalls = excuseGivenUpHoles(
    judgeStalls(raw.stallBuffers ?? [], raw.bufferedFrags ?? []),
    raw.errors.filter(isOwnAbort),
  );
  let levelSwitches = 0;
  for (let i = 1; i < raw.levels.length; i++)
    if (raw.levels[i]!.level !== raw.levels[i - 1]!.level) levelSwitches++;
  let discontinuitiesCrossed = 0;
  for (let i = 1; i < raw.frags.length; i++)
    if (raw.frags[i]!.cc !== raw.frags[i - 1]!.cc) discontinuitiesCrossed++;

  return {
    started,
    errors: raw.errors,
    fatalErrors: raw.errors.filter((e) => e.fatal),
    stalls: afterStart(raw.mediaEvents).filter((e) => e.type === 'waiting' || e.type === 'stalled').length,
    judgedStalls,
    streamStalls: judgedStalls.filter((s) => s.stream),
    currentTimeStart,
    currentTimeEnd,
    playedSeconds: currentTimeEnd - currentTimeStart,
    playersHaltSeconds: playersHaltSeconds(judgedStalls, raw.mediaEvents, last?.atMs ?? 0),
    wallSeconds: started && last ? Math.max(0, last.atMs - playingAt) / 1000 : 0,
    levelSwitches,
    discontinuitiesCrossed,
    seeks: afterStart(raw.mediaEvents).filter((e) => e.type === 'seeking').length,
    pageErrors: raw.pageErrors,
    raw,
  };
}

/** hls.js's errors and the page's, for a failure message ('(none)' for either when there were none). */
export const describePlaybackErrors = (play: BrowserPlayback): string =>
  `errors:\n${describeErrors(play.errors) || '(none)'}\npage: ${play.pageErrors.join('; ') || '(none)'}`;

export interface PageServer {
  url: string;
  close(): Promise<void>;
}

/** A page's files by request path: the file on disk and its content type. */
type PageFiles = Record<string, { file: string; type: string }>;

const JS = 'text/javascript; charset=utf-8';

/** The test player's script (browser-page/player.js): records window.__report. */
const PLAYER_SCRIPT = path.join(PAGE_DIR, 'player.js');

/**
 * Serves the player page on 127.0.0.1 (the engine's CORS headers allow the cross-origin load): hls.js
 * (`/hls.min.js`), the recorder both players share (`/recorder.js`) and, as `/player.js`, the player's
 * own script: the test player's by default, or another (the soak's, scripts/soak/page/soak.js).
 */
export async function startPageServer(playerScript: string = PLAYER_SCRIPT): Promise<PageServer> {
  const files: PageFiles = {
    '/': { file: path.join(PAGE_DIR, 'index.html'), type: 'text/html; charset=utf-8' },
    '/hls.min.js': { file: HLS_JS, type: JS },
    '/recorder.js': { file: path.join(PAGE_DIR, 'recorder.js'), type: JS },
    '/player.js': { file: playerScript, type: JS },
  };
  const server = createServer((req, res) => {
    const requestPath = (req.url ?? '/').split('?')[0] ?? '/';
    const entry = files[requestPath];
    // The browser asks for an icon on its own; a 404 would show up as a console error.
    if (requestPath === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (!entry) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    readFile(entry.file).then(
      (body) => res.writeHead(200, { 'content-type': entry.type, 'cache-control': 'no-store' }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('unreadable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface PlayInBrowserOptions {
  /** Real seconds to play once playback has started. */
  seconds: number;
  /** How long playback may take to start (default 30 s); a fatal error ends the wait early. */
  startTimeoutMs?: number;
  /** Extra hls.js options (lowLatencyMode stays off). */
  hlsConfig?: Record<string, unknown>;
  /** Switch to the audio track of this language once currentTime passes atSec. */
  audioSwitch?: { lang: string; atSec: number };
  /** Show the subtitle track of this language (its cues are recorded). */
  subtitleLang?: string;
  /** A page expression (over window.__report) that ends playback early once true. */
  until?: string;
}

/**
 * An `until` expression: true once the player has crossed `count` discontinuities (frags whose cc
 * changes, the VOD or preroll boundaries a channel's playlist marks) and its playhead is `seconds` past
 * the last of those seams, so the seam and what follows it were played, not only loaded.
 */
export const untilCrossed = (count: number, seconds: number): string => `(() => {
  const f = window.__report.frags;
  const seams = f.flatMap((x, n) => (n > 0 && x.cc !== f[n - 1].cc ? [n] : []));
  const last = window.__report.samples[window.__report.samples.length - 1];
  return seams.length >= ${count} && !!last && last.currentTime >= (f[seams[${count - 1}]].start ?? 0) + ${seconds};
})()`;

export class BrowserUnsupportedError extends Error {
  override name = 'BrowserUnsupportedError';
}

/**
 * Opens the URL in a fresh page of headless Chromium (a context of its own, `openChromium`), plays it
 * for `seconds` after it starts (or gives up on a fatal error or the start timeout, or stops once `until`
 * holds) and returns the verdict. Throws BrowserUnsupportedError when the browser cannot decode
 * H.264/AAC through MediaSource, since no assertion would mean anything then.
 */
export async function playInBrowser(url: string, options: PlayInBrowserOptions): Promise<BrowserPlayback> {
  const pageServer = await startPageServer();
  let browser: Browser | undefined;
  try {
    browser = await openChromium();
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      // Failed loads are hls.js errors already, with their URL; the console repeats them without it.
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
        pageErrors.push(`console: ${msg.text()}`);
    });

    const query = new URLSearchParams({
      src: url,
      config: JSON.stringify(options.hlsConfig ?? {}),
      ...(options.audioSwitch
        ? { audioLang: options.audioSwitch.lang, audioSwitchAtSec: String(options.audioSwitch.atSec) }
        : {}),
      ...(options.subtitleLang ? { subtitleLang: options.subtitleLang } : {}),
    });
    await page.goto(`${pageServer.url}/?${query}`);
    const decodes = await page.evaluate(`MediaSource.isTypeSupported(${JSON.stringify(REQUIRED_MSE_TYPE)})`);
    if (decodes !== true)
      throw new BrowserUnsupportedError(
        `${CHROMIUM_PATH} (${browser.version()}) cannot play ${REQUIRED_MSE_TYPE} through MediaSource`,
      );

    // Expressions as strings: a compiled function could reference helpers that exist only in Node.
    const fatal = 'window.__report.errors.some((e) => e.fatal)';
    const waitFor = (expression: string, timeoutMs: number) =>
      page.waitForFunction(expression, undefined, { timeout: timeoutMs, polling: 200 }).then(
        () => true,
        () => false,
      );
    await waitFor(`window.__report.firstPlayingAtMs !== null || ${fatal}`, options.startTimeoutMs ?? 30_000);
    const playing = await page.evaluate(`window.__report.firstPlayingAtMs !== null && !(${fatal})`);
    // hls.js gives up after a fatal error: nothing more to watch.
    if (playing)
      await waitFor(options.until ? `${fatal} || (${options.until})` : fatal, options.seconds * 1000);

    const raw = (await page.evaluate('window.__finish()')) as RawBrowserReport;
    raw.pageErrors.push(...pageErrors);
    return summarizePlayback(raw);
  } finally {
    await browser?.close().catch(() => undefined);
    await pageServer.close();
  }
}
