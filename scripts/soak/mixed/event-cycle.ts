/**
 * Keeps the mixed channel's events coming for as long as the run lasts (cycle-plan.ts): for each
 * planned event, its ffmpeg `-re` source is started ahead of it, the event is made through the channel
 * API once the source is up, and after the event (and the player's distance behind it) the source is
 * stopped and the event removed, so a run of hours stays within the channel's 50 events.
 */
import { killWhenParentDies, type Watchdog } from '../../../local/parent-watchdog';
import { type LiveSource, type LiveSourceOptions, startLiveSource } from '../../../test/support/live-source';
import type { ChannelClient } from './channel-client';
import { type EventKind, eventsStartingBefore, type PlannedEvent } from './cycle-plan';
import type { SegmentSource } from './seams';

/** A source is started this long before its event: ffmpeg lists its first segments, the engine joins
 * a few target durations ahead of the start. */
const SOURCE_AHEAD_MS = 45_000;
/** A source stays up this long after its event: players behind the live edge still fetch from it. */
const SOURCE_AFTER_MS = 30_000;
const TICK_MS = 1000;

/** The source of each kind of event. The slate's has 4 s segments, longer than the channel's 2 s
 * target duration: the engine refuses it and plays the slate for the event (docs/live-mixing.md). */
export const SOURCE_OPTIONS: Record<EventKind, LiveSourceOptions> = {
  'live-ts': { demuxedAudio: true },
  'live-cmaf': { demuxedAudio: true, cmaf: true },
  slate: { demuxedAudio: true, segmentS: 4 },
};

interface Running {
  event: PlannedEvent;
  source?: LiveSource;
  watchdog?: Watchdog;
  eventId?: string;
}

export class EventCycle {
  private readonly running = new Map<number, Running>();
  private readonly known: SegmentSource[] = [];
  private nextIndex = 0;
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private stopped = false;

  constructor(
    private readonly client: ChannelClient,
    private readonly channelId: string,
    private readonly firstStartMs: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Every live source started so far, by URL prefix (seams.ts). */
  sources(): readonly SegmentSource[] {
    return this.known;
  }

  /** The pids of the sources running now (to kill at exit, whatever happens). */
  pids(): number[] {
    return [...this.running.values()].flatMap((r) => (r.source ? [r.source.pid] : []));
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), TICK_MS);
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = Date.now();
      for (const event of eventsStartingBefore(now + SOURCE_AHEAD_MS, this.firstStartMs, this.nextIndex)) {
        this.nextIndex = event.index + 1;
        const run: Running = { event };
        this.running.set(event.index, run);
        void this.open(run);
      }
      for (const run of this.running.values())
        if (now > run.event.endMs + SOURCE_AFTER_MS) await this.close(run);
    } finally {
      this.busy = false;
    }
  }

  private async open(run: Running): Promise<void> {
    const { event } = run;
    try {
      run.source = await startLiveSource(SOURCE_OPTIONS[event.kind]);
      run.watchdog = killWhenParentDies(run.source.pid);
      if (this.stopped) return await this.close(run);
      // The slate's source is never played: its segments on the channel would be a bug to see.
      const kind = event.kind === 'slate' ? 'refused-source' : event.kind;
      this.known.push({ prefix: run.source.url.replace(/master\.m3u8$/, ''), kind });
      run.eventId = await this.client.addEvent(this.channelId, run.source.url, event.startMs, event.endMs);
      this.log(
        `event ${event.index} (${event.kind}) made: ${clock(event.startMs)}-${clock(event.endMs)} UTC, source ${run.source.url}`,
      );
    } catch (e) {
      this.log(`event ${event.index} (${event.kind}) not made: ${(e as Error).message}`);
    }
  }

  private async close(run: Running): Promise<void> {
    this.running.delete(run.event.index);
    const requests = run.source?.requests() ?? [];
    const segments = requests.filter((r) => /\.(ts|m4s|mp4)$/.test(r.path));
    const missing = segments.filter((r) => r.status === 404).length;
    if (run.source)
      this.log(
        `event ${run.event.index} (${run.event.kind}) over: its source answered ${segments.length} segment requests, ${missing} with 404`,
      );
    run.watchdog?.stop();
    await run.source?.close().catch(() => undefined);
    if (run.eventId)
      await this.client
        .removeEvent(this.channelId, run.eventId)
        .catch((e: unknown) => this.log(`event ${run.event.index} not removed: ${(e as Error).message}`));
  }

  /** Stops every source (the events stay with the channel, which is removed after). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const run of [...this.running.values()]) {
      this.running.delete(run.event.index);
      run.watchdog?.stop();
      await run.source?.close().catch(() => undefined);
    }
  }
}

export const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);
