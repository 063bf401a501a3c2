/**
 * The engine without its HTTP server and timers: shared caches, the planner, and the channels. The
 * Engine drives it from timers; tests drive it with a fake clock (24 hours in a few seconds).
 */
import { createLogger, type Logger } from '../../functions/core/logger';
import { ChannelPlaylists } from './channel/channel-playlists';
import { ChannelPlayout } from './channel/channel-playout';
import { Planner } from './channel/planner';
import { trackResolver } from './channel/resolver';
import type { EngineConfig } from './config';
import { EngineEvents } from './events';
import { Metrics } from './metrics';
import { InMemoryPlayoutLogStore, type PlayoutLogStore } from './playout/log-store';
import type { TrackResolver } from './playout/window';
import type { Channel, IAssetManager } from './types';
import { withTimeout } from './util/timeout';
import { loadVod } from './vod/load-vod';
import { VodCache } from './vod/vod-cache';

export interface ChannelRuntime {
  playout: ChannelPlayout;
  playlists: ChannelPlaylists;
  /** 'manager': follows channelManager.getChannels(); 'auto': created by autoCreateSession. */
  origin: 'manager' | 'auto';
}

export class EngineCore {
  readonly vods: VodCache;
  readonly events: EngineEvents;
  readonly metrics = new Metrics();
  readonly store: PlayoutLogStore;
  readonly log: Logger = createLogger({ component: 'engine' });
  private readonly planner: Planner;
  private readonly resolve: TrackResolver;
  private readonly channels = new Map<string, ChannelRuntime>();

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
    this.store = config.logStore ?? new InMemoryPlayoutLogStore();
    this.resolve = trackResolver(this.vods, config);
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
      existing.playout.channel = channel;
      return existing;
    }
    const { config, vods, resolve, metrics, events, log, store, planner } = this;
    const playout = new ChannelPlayout(channel, {
      config,
      planner,
      store,
      vods,
      events,
      metrics,
      log,
      resolve,
    });
    const runtime: ChannelRuntime = {
      playout,
      playlists: new ChannelPlaylists(playout, { config, vods, resolve, metrics }),
      origin,
    };
    this.channels.set(channel.id, runtime);
    events.emit(channel.id, 'channel_added', { name: channel.name, origin });
    return runtime;
  }

  removeChannel(id: string): void {
    if (this.channels.delete(id)) this.events.emit(id, 'channel_removed');
  }

  /** Follows the channel manager's list: adds, updates and deletes (auto-created channels stay). */
  syncChannels(list: readonly Channel[]): void {
    const wanted = new Set(list.map((c) => c.id));
    for (const c of list) this.upsertChannel(c, 'manager');
    for (const [id, runtime] of this.channels)
      if (runtime.origin === 'manager' && !wanted.has(id)) this.removeChannel(id);
  }

  /** Starts advance() on every channel that is due; returns their promises (the engine's tick ignores them). */
  kickDue(): Promise<void>[] {
    const now = this.config.clock();
    const runs: Promise<void>[] = [];
    for (const { playout } of this.channels.values())
      if (playout.nextWakeMs() <= now) runs.push(playout.advance());
    return runs;
  }

  /** Advances every channel and waits (tests, start-up). */
  async advanceAll(): Promise<void> {
    await Promise.all([...this.channels.values()].map((c) => c.playout.advance()));
  }

  /** Resolves when no channel is advancing (engine.stop waits for this). */
  async idle(): Promise<void> {
    await Promise.all([...this.channels.values()].map((c) => c.playout.idle()));
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

  async refreshSchedules(): Promise<void> {
    const manager = this.config.streamSwitchManager;
    if (!manager) return;
    await Promise.all(
      [...this.channels.values()].map(async ({ playout }) => {
        try {
          const events = await withTimeout(
            manager.getSchedule(playout.channel.id),
            this.config.getNextVodTimeoutMs,
            'getSchedule',
          );
          playout.setSchedule(Array.isArray(events) ? events : []);
        } catch (err) {
          this.log.warn('getSchedule failed', { channelId: playout.channel.id, err });
        }
      }),
    );
  }

  sweep(): void {
    for (const { playout } of this.channels.values())
      for (const item of playout.tail.items) this.vods.touch(item.uri);
    this.vods.sweep();
  }
}
