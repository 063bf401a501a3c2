/**
 * One soak run (docs/soak.md), for `npm run soak` (main.ts) and the mixed channel's soak
 * (mixed/main.ts): hls.js plays the URL in headless Chromium for N minutes while every media playlist
 * is held to RFC 8216's live rules; every minute prints errors by kind, halts (the stream's and the
 * player's), frames dropped, the distance behind the live edge, the smallest buffer ahead and the
 * server's memory; the end prints the run's totals. Answers whether the run was clean.
 */
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startPageServer } from '../../test/support/browser';
import type { SoakArgs } from './args';
import { watchPlaylistRules } from './playlist-rules';
import { raisePlayerPriority } from './realtime-player';
import { serverMemory } from './server-memory';
import {
  formatMinute,
  formatTotals,
  isClean,
  judgeMinuteStalls,
  type MinuteSummary,
  type PageTake,
  summarizeMinute,
  timelineOffsetMs,
  totals,
} from './summary';

const SOAK_PLAYER = path.join(import.meta.dirname, 'page', 'soak.js');
const MINUTE_MS = 60_000;
const defaultLog = (line: string) => process.stdout.write(`[soak] ${line}\n`);

/** Plays `args.url` for `args.minutes` (Chromium must be there: chromiumAvailable()); true when clean. */
export async function runSoak(
  args: SoakArgs,
  log: (line: string) => void = defaultLog,
  /** Called when the player is open and the first minute begins. */
  onStart: () => void = () => undefined,
): Promise<boolean> {
  // The test player's page and recorder, with the soak's own player script (page/soak.js).
  const pageServer = await startPageServer(SOAK_PLAYER);
  const rules = await watchPlaylistRules(args.url);
  const memory = serverMemory(args.url, args.pid);
  const player = new Player(
    `${pageServer.url}/?${new URLSearchParams({ src: args.url })}`,
    log,
    args.realtimePlayer ?? false,
  );
  try {
    log(`playing ${args.url} for ${args.minutes} minutes (Chromium ${await player.open()})`);
    onStart();
    const minutes: MinuteSummary[] = [];
    let previous: PageTake | undefined;
    let pending: PageTake['stalls'] = [];
    /** The first minute's timeline offset of the player now open (a new browser starts its own timeline). */
    let timelineOrigin: number | undefined;
    for (let minute = 1; minute <= args.minutes; minute++) {
      await new Promise((resolve) => setTimeout(resolve, MINUTE_MS));
      await player.keepRealtime();
      const take = await player.take();
      if (!take) {
        // The browser went away (a crash, the machine out of memory): a viewer would have seen it.
        const summary = summarizeMinute({ minute, take: lostPage(), stalls: [], rules: rules.take() });
        minutes.push(summary);
        log(formatMinute(summary));
        previous = undefined;
        pending = [];
        timelineOrigin = undefined;
        await player.open().catch((e: unknown) => log(`could not reopen the browser: ${String(e)}`));
        continue;
      }
      const final = minute === args.minutes;
      const judged = judgeMinuteStalls(
        [...pending, ...take.stalls],
        take.frags,
        Date.now(),
        final,
        take.errors,
      );
      pending = judged.pending;
      timelineOrigin ??= timelineOffsetMs(take.frags, previous?.wallMs ?? 0);
      const summary = summarizeMinute({
        timelineOriginMs: timelineOrigin,
        minute,
        take,
        previous,
        stalls: judged.stalls,
        rules: rules.take(),
        rssBytes: await memory(),
      });
      previous = take;
      minutes.push(summary);
      log(formatMinute(summary));
    }
    const all = totals(minutes);
    const [first, ...more] = formatTotals(all).split('\n');
    log(`totals: ${first}`);
    for (const line of more) log(`  ${line}`);
    return isClean(all);
  } finally {
    rules.stop();
    await player.close();
    await pageServer.close();
  }
}

/** Chromium with the soak page; opened again (a fresh browser) when it went away. */
class Player {
  private browser: Browser | undefined;
  private page: Page | undefined;

  constructor(
    private readonly url: string,
    private readonly log: (line: string) => void,
    private readonly realtime: boolean,
  ) {}

  /** Opens a fresh browser on the page; returns the browser's version. */
  async open(): Promise<string> {
    await this.close();
    this.browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    this.page = await this.browser.newPage();
    this.page.on('pageerror', (err) => this.log(`page error: ${err.message}`));
    await this.page.goto(this.url);
    if (this.realtime) {
      const { raised, refused } = await raisePlayerPriority();
      this.log(
        `--realtime-player: ${raised} Chromium processes under SCHED_RR` +
          (refused ? `; refused: ${refused}` : ''),
      );
    }
    return this.browser.version();
  }

  /** Chromium starts processes as it goes (a renderer, a media service): each under SCHED_RR too. */
  async keepRealtime(): Promise<void> {
    if (this.realtime) await raisePlayerPriority().catch(() => undefined);
  }

  /** The page's record since the last take, or undefined when the page or browser is gone. */
  async take(): Promise<PageTake | undefined> {
    try {
      return (await this.page?.evaluate('window.__take()')) as PageTake | undefined;
    } catch (e) {
      this.log(`the page is gone: ${(e as Error).message.split('\n')[0]}`);
      return undefined;
    }
  }

  async close(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    this.browser = undefined;
    this.page = undefined;
  }
}

/** A minute whose page was lost: counted as an error, not playing. */
const lostPage = (): PageTake => ({
  started: false,
  playing: false,
  errors: [{ atMs: 0, type: 'soak', details: 'browserClosed', fatal: true }],
  stalls: [],
  latencies: [],
  behindLive: [],
  bufferAhead: [],
  currentTime: 0,
  wallMs: Date.now(),
  droppedFrames: 0,
  totalFrames: 0,
  frags: [],
});
