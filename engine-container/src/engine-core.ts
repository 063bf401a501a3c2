/**
 * The engine without its HTTP server and timers: shared caches, the planner, and the channels. The
 * Engine drives it from timers; tests drive it with a fake clock (24 hours in a few seconds).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createLogger, type Logger } from '../../core/logger';
import { withTimeout } from '../../core/timeout';
import { ChannelPlaylists } from './channel/channel-playlists';
import { ChannelPlayout } from './channel/channel-playout';
import { FailingChannels } from './channel/outage/failing-channels';
import { Planner } from './channel/planner';
import { trackResolver } from './channel/resolver';
import type { EngineConfig } from './config';
import { EngineEvents } from './events';
import { Metrics } from './metrics';
import { InMemoryPlayoutLogStore, type PlayoutLogStore, soleWriterLog } from './playout/log-store';
import type { TrackResolver } from './playout/window';
import { SchedulePoll } from './schedule-poll';
import { adaptiveTickCeilingMs } from './tick-ceiling';
import { TimeshiftPlaylists } from './timeshift/timeshift-playlists';
import { type Channel, type IAssetManager, type IStreamSwitchManager, reportsChanges } from './types';
import { WakeQueue } from './util/wake-queue';
import { loadVod } from './vod/load-vod';
import { VodCache } from './vod/vod-cache';

/**
 * Channels started per slice of a tick. An advance with the in-memory store takes tens of microseconds
 * of CPU (more when it appends an item, or before the JIT has warmed up): a slice, run to completion in
 * one block, keeps the event loop busy for about a millisecond.
 */
export const KICK_SLICE = 32;
/** A slice also ends once starting its advances took this long (slow machine, slow store client). */
const KICK_SLICE_MS = 5;

/** Advances advanceAll runs at once. */
export const ADVANCES_IN_FLIGHT = 64;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface ChannelRuntime {
  playout: ChannelPlayout;
  playlists: ChannelPlaylists;
  /** 'manager': follows channelManager.getChannels(); 'auto': created by autoCreateSession. */
  origin: 'manager' | 'auto';
  /** Removed from the engine: its wakes still queued are dropped (no lookup of its id per wake). */
  removed?: true;
}

export class EngineCore {
  readonly vods: VodCache;
  readonly events: EngineEvents;
  readonly metrics = new Metrics();
  readonly store: PlayoutLogStore;
  /** The in-memory log this engine keeps when given no store: it forgets removed channels. */
  private readonly ownLog: InMemoryPlayoutLogStore | undefined;
  readonly log: Logger = createLogger({ component: 'engine' });
  /** This engine in writer leases: host and pid say who held a lease, the suffix tells restarts apart. */
  readonly instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** Start-over and catch-up playlists (`?start=`, docs/timeshift.md). */
  readonly timeshift: TimeshiftPlaylists;
  private readonly planner: Planner;
  private readonly resolve: TrackResolver;
  private readonly channels = new Map<string, ChannelRuntime>();
  private readonly failingChannels = new FailingChannels();
  /** The stream switch manager's and the asset manager's, for those the engine has. */
  private readonly schedulePolls: SchedulePoll[] = [];
  /** The channel manager's list as last followed (syncChannels). */
  private syncedList: readonly Channel[] = [];
  /** Every channel's wakes as they are set; an entry is current while it equals the channel's wake. */
  private readonly wakes = new WakeQueue<ChannelRuntime>();
  /** The kick in progress (idle() waits for it: it may still start advances). */
  private kicking: Promise<void> | undefined;
  /** The earliest wake among the channels the last kick found not due, and of those it woke without a run. */
  laterWakeMs = Number.POSITIVE_INFINITY;
  /**
   * The longest target duration among the channels (tickCeilingMs), raised as channels report theirs;
   * undefined after a removal, until the next tickCeilingMs scans the channels again.
   */
  private longestTargetS: number | undefined = 0;

  constructor(
    readonly assetManager: IAssetManager,
    readonly config: EngineConfig,
  ) {
    const { clock } = config;
    this.vods = new VodCache(
      (uri) =>
        loadVod(uri, {
          fetch: config.fetch,
          timeoutMs: config.vodLoadTimeoutMs,
          maxPlaylistBytes: config.maxPlaylistBytes,
          useDemuxedAudio: config.useDemuxedAudio,
          useVTTSubtitles: config.useVTTSubtitles,
        }),
      { clock },
    );
    this.events = new EngineEvents(clock);
    // Its own store has no other writer: no leases (soleWriterLog).
    if (!config.logStore) this.ownLog = new InMemoryPlayoutLogStore(clock, config.timeshiftRetentionMs);
    this.store = config.logStore ?? soleWriterLog(this.ownLog!);
    this.resolve = trackResolver(this.vods, config);
    this.timeshift = new TimeshiftPlaylists({
      config,
      store: this.store,
      resolve: this.resolve,
      vods: this.vods,
    });
    const switches = config.streamSwitchManager;
    if (switches)
      this.schedulePolls.push(
        new SchedulePoll('getSchedule', switches, (id) => this.askSchedule(switches, id), this.log),
      );
    if (reportsChanges(assetManager))
      this.schedulePolls.push(
        new SchedulePoll('contentChangedFrom', assetManager, (id) => this.askContentChange(id), this.log),
      );
    this.planner = new Planner({
      config,
      assetManager,
      vods: this.vods,
      events: this.events,
      metrics: this.metrics,
      log: this.log,
    });
  }

  channel(id: string): ChannelRuntime | undefined {
    return this.channels.get(id);
  }

  get channelIds(): string[] {
    return [...this.channels.keys()];
  }

  /** Adds a channel, or updates its settings (its ladder and target duration stay as its log fixed them). */
  upsertChannel(channel: Channel, origin: ChannelRuntime['origin'] = 'manager'): ChannelRuntime {
    const existing = this.channels.get(channel.id);
    if (existing) {
      existing.playout.update(channel);
      return existing;
    }
    const { config, vods, resolve, metrics, events, log, store, planner, wakes } = this;
    let runtime: ChannelRuntime | undefined;
    const playout = new ChannelPlayout(channel, {
      config,
      planner,
      store,
      vods,
      events,
      metrics,
      log,
      resolve,
      owner: this.instanceId,
      failing: this.failingChannels,
      onWake: (atMs) => {
        // A run of a removed channel may end after the removal: it no longer counts.
        if (!runtime || runtime.removed) return;
        if (atMs !== Number.POSITIVE_INFINITY) wakes.push(atMs, runtime);
        // Fixed by the channel's first items: known by the wake after the run that appended them.
        const targetS = playout.header?.targetDurationS ?? 0;
        if (this.longestTargetS !== undefined && targetS > this.longestTargetS) this.longestTargetS = targetS;
      },
    });
    runtime = {
      playout,
      playlists: new ChannelPlaylists(playout, { config, vods, resolve, metrics }),
      origin,
    };
    this.channels.set(channel.id, runtime);
    for (const poll of this.schedulePolls) poll.added(channel.id);
    wakes.push(playout.nextWakeMs(), runtime);
    events.emit(channel.id, 'channel_added', { name: channel.name, origin });
    return runtime;
  }

  removeChannel(id: string): void {
    const runtime = this.channels.get(id);
    if (runtime && this.channels.delete(id)) {
      runtime.removed = true;
      runtime.playout.close();
      this.ownLog?.forget(id);
      this.longestTargetS = undefined;
      this.timeshift.forget(id);
      this.events.emit(id, 'channel_removed');
    }
  }

  /**
   * Follows the channel manager's list: adds, updates and deletes (auto-created channels stay). A list
   * of the same channel objects as the last one changes nothing (an object changed in place is already
   * the channel's): it is passed over without visiting any channel, as the engine polls every few
   * seconds and 10,000 channels' objects, untouched since, cost a fifth of a second on a cold host.
   */
  syncChannels(list: readonly Channel[]): void {
    const last = this.syncedList;
    if (last.length === list.length && list.every((c, i) => c === last[i])) return;
    this.syncedList = [...list];
    const wanted = new Set(list.map((c) => c.id));
    for (const c of list) this.upsertChannel(c, 'manager');
    for (const [id, runtime] of this.channels)
      if (runtime.origin === 'manager' && !wanted.has(id)) this.removeChannel(id);
  }

  /**
   * Starts advance() on every channel that is due and resolves with their promises once all are
   * started (the engine's tick does not wait for the runs). Channels that change VOD together are all
   * due at once: they are started in slices of KICK_SLICE, yielding to the event loop between slices,
   * so requests are served meanwhile instead of waiting for a thousand advances in one block. A slice
   * also ends early after KICK_SLICE_MS of synchronous work. `proceed() === false` ends the kick at
   * the next slice (the engine is stopping). Each run resolves with its channel's next wake; a wake
   * done without a run (an item start alone, ChannelPlayout.wake) has none, and counts in laterWakeMs.
   */
  async kickDue(proceed: () => boolean = () => true): Promise<Promise<number>[]> {
    const run = this.kickSlices(proceed);
    this.kicking = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async kickSlices(proceed: () => boolean): Promise<Promise<number>[]> {
    const now = this.config.clock();
    const due: ChannelRuntime[] = [];
    // Entries no longer current are taken too: the loop below skips them.
    for (let at = this.wakes.peekMs(); at !== undefined && at <= now; at = this.wakes.peekMs())
      due.push(this.wakes.pop()!);
    this.laterWakeMs = this.earliestWakeMs();
    const runs: Promise<number>[] = [];
    let sliceStart = performance.now();
    let inSlice = 0;
    for (const runtime of due) {
      if (inSlice >= KICK_SLICE || performance.now() - sliceStart >= KICK_SLICE_MS) {
        // The runs just started finish their in-memory work in the microtasks before this yield.
        await yieldToEventLoop();
        if (!proceed()) break;
        sliceStart = performance.now();
        inSlice = 0;
      }
      // Removed, or already started by a request, while an earlier slice ran.
      if (runtime.removed || runtime.playout.nextWakeMs() > now) continue;
      const { playout } = runtime;
      const run = playout.wake();
      // An item start alone is done already: its next wake is known now, with no promise to wait on.
      if (run) runs.push(run.then(() => playout.nextWakeMs()));
      else this.laterWakeMs = Math.min(this.laterWakeMs, playout.nextWakeMs());
      inSlice++;
    }
    return runs;
  }

  /** The earliest wake in the queue that is still its channel's (others are dropped on the way). */
  private earliestWakeMs(): number {
    for (let at = this.wakes.peekMs(); at !== undefined; at = this.wakes.peekMs()) {
      const runtime = this.wakes.peek()!;
      if (!runtime.removed && runtime.playout.nextWakeMs() === at) return at;
      this.wakes.pop();
    }
    return Number.POSITIVE_INFINITY;
  }

  /**
   * Advances every channel and waits (tests, start-up), ADVANCES_IN_FLIGHT at a time: started all at
   * once, every channel's run waits on the same first VOD load and then all resume in one burst, so the
   * young generation is full of live half-done runs at every scavenge (half of 10,000 channels' start-up
   * was garbage collection).
   */
  async advanceAll(): Promise<void> {
    const all = [...this.channels.values()];
    let next = 0;
    const worker = async () => {
      while (next < all.length) await all[next++]!.playout.advance();
    };
    await Promise.all(Array.from({ length: Math.min(ADVANCES_IN_FLIGHT, all.length) }, worker));
  }

  /** Resolves when no channel is advancing (engine.stop waits for this). */
  async idle(): Promise<void> {
    await this.kicking;
    await Promise.all([...this.channels.values()].map((c) => c.playout.idle()));
  }

  /** Channels whose advances fail (the store unreachable), and since when the oldest has: for /health. */
  failing(): { channels: number; sinceMs?: number } {
    return this.failingChannels.summary();
  }

  /**
   * The longest the tick may sleep: maxTickInterval, else adapted to the channels' target durations.
   * The longest target duration is kept as channels report theirs (a channel's is fixed by its first
   * items), not scanned for: a scan of every channel cost a twentieth of the idle engine's main thread
   * at 10,000 channels even once every 10 s (cache misses on every channel's objects). A removal may
   * lower it: the next call scans once.
   */
  tickCeilingMs(): number {
    if (this.config.maxTickInterval !== undefined) return this.config.maxTickInterval;
    if (this.longestTargetS === undefined) {
      let longest = 0;
      for (const { playout } of this.channels.values())
        longest = Math.max(longest, playout.header?.targetDurationS ?? 0);
      this.longestTargetS = longest;
    }
    return adaptiveTickCeilingMs(this.longestTargetS);
  }

  nextWakeMs(): number {
    let wake = Number.POSITIVE_INFINITY;
    for (const { playout } of this.channels.values()) wake = Math.min(wake, playout.nextWakeMs());
    return wake;
  }

  /** Loads the default slate early so the first items can count its segments into the target duration. */
  async preloadSlate(): Promise<void> {
    const uri = this.config.defaultSlateUri;
    if (!uri) return;
    await this.vods
      .load(uri)
      .catch((err: unknown) => this.log.error('default slate cannot be loaded', { uri, err }));
  }

  /**
   * The channels' schedule events (stream switch manager) and, when the asset manager tells, from when
   * their content changed (IAssetManager.contentChangedFrom): of every channel, or of those a manager
   * says changed (schedule-poll.ts). Returns how many channels must look at a change at once (the tick
   * is poked for them).
   */
  async refreshSchedules(): Promise<number> {
    const must = await Promise.all(this.schedulePolls.map((poll) => poll.run(this.channels)));
    return must.reduce((a, b) => a + b, 0);
  }

  /** Tells the channel its schedule events; true when they changed. */
  private async askSchedule(manager: IStreamSwitchManager, channelId: string): Promise<boolean> {
    const events = await withTimeout(
      manager.getSchedule(channelId),
      this.config.getNextVodTimeoutMs,
      'getSchedule',
    );
    const playout = this.channels.get(channelId)?.playout;
    return playout?.setSchedule(Array.isArray(events) ? events : []) ?? false;
  }

  /** Tells the channel from when its content changed, if it did. */
  private async askContentChange(channelId: string): Promise<boolean> {
    const fromMs = await withTimeout(
      Promise.resolve(
        this.assetManager.contentChangedFrom?.({ sessionId: channelId, playlistId: channelId }),
      ),
      this.config.getNextVodTimeoutMs,
      'contentChangedFrom',
    );
    const playout = this.channels.get(channelId)?.playout;
    if (!playout || typeof fromMs !== 'number' || !Number.isFinite(fromMs)) return false;
    playout.contentChanged(fromMs);
    return true;
  }

  /** Drops the VODs no channel holds and nobody read for a while (VodCache.sweep). */
  sweep(): void {
    this.vods.sweep();
  }
}
