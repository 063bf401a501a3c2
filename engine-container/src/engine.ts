/**
 * The playout engine: `new Engine(assetManager, options)`, `await engine.start()` (listening on
 * options.port ?? $port ?? 8000; port 0 picks a free one, see `engine.port`), `await engine.stop()`.
 * Nothing runs before start(): the constructor only validates options and builds the core.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../../core/env';
import { withTimeout } from '../../core/timeout';
import { type EngineConfig, type EngineOptions, resolveConfig } from './config';
import { EngineCore } from './engine-core';
import type { EngineEvents } from './events';
import { emfLine } from './metrics';
import type { PlayoutLogStore } from './playout/log-store';
import { ErrorLog } from './server/error-log';
import { EventStreams } from './server/event-stream';
import { handleRequest, type ServerContext } from './server/routes';
import { isSubtitleSource, VttSlicer } from './server/vtt';
import { storeFromUrl } from './stores/store-from-url';
import { DEFAULT_TICK_CEILING_MS, MIN_TICK_MS, tickSleepMs } from './tick-ceiling';
import type { Channel, IAssetManager } from './types';
import { TaskLoop } from './util/task-loop';

const SWEEP_INTERVAL_MS = 60_000;
const METRICS_INTERVAL_MS = 60_000;

export class Engine {
  readonly config: EngineConfig;
  readonly core: EngineCore;
  private server: Server | undefined;
  private loops: TaskLoop[] = [];
  private tick: TaskLoop | undefined;
  private readonly streams: EventStreams;
  private readonly ownStore: PlayoutLogStore | undefined;

  constructor(assetManager: IAssetManager, options: EngineOptions = {}) {
    if (typeof assetManager?.getNextVod !== 'function')
      throw new ConfigError('assetManager must implement getNextVod()');
    const config = resolveConfig(options);
    const url = config.kvstoreUrl ?? config.cachestoreUrl;
    // A store made here from a URL is ours to close; a logStore passed in is the caller's.
    this.ownStore = url ? storeFromUrl(url, config.clock, config.timeshiftRetentionMs) : undefined;
    this.config = this.ownStore ? { ...config, logStore: this.ownStore } : config;
    this.core = new EngineCore(assetManager, this.config);
    this.streams = new EventStreams(this.core.events, {
      perChannel: this.config.eventStreamMaxClientsPerChannel,
      total: this.config.eventStreamMaxClients,
    });
  }

  get events(): EngineEvents {
    return this.core.events;
  }

  /** The port the server listens on (useful with port 0). */
  get port(): number {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('engine is not started');
    return address.port;
  }

  async start(): Promise<void> {
    if (this.server) return;
    const { config, core } = this;
    if (config.channelManager) await this.refreshChannels();
    const ctx: ServerContext = {
      core,
      config,
      streams: this.streams,
      slicer: new VttSlicer({
        fetch: config.fetch,
        timeoutMs: config.vodLoadTimeoutMs,
        maxBytes: config.maxPlaylistBytes,
        isKnownSource: (uri) => isSubtitleSource(core.vods.loaded(), uri),
        log: core.log,
      }),
      log: core.log,
      errors: new ErrorLog(core.log),
    };
    const server = createServer((req, res) => handleRequest(ctx, req, res));
    server.keepAliveTimeout = config.keepAliveTimeout * 1000;
    // Node requires headersTimeout above keepAliveTimeout, or idle sockets race a late request.
    server.headersTimeout = server.keepAliveTimeout + 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    await core.preloadSlate();
    this.startLoops();
    core.log.info('engine listening', { port: this.port, channels: core.channelIds.length });
  }

  private startLoops(): void {
    const { config, core } = this;
    const onError = (err: unknown) => core.log.error('engine loop failed', { err });
    const tick = new TaskLoop(
      async () => {
        // Stops starting advances (between slices) once stop() has ended this tick.
        const runs = await core.kickDue(() => this.tick === tick);
        const next = tickSleepMs(core.laterWakeMs - config.clock(), config.maxTickInterval, () =>
          core.tickCeilingMs(),
        );
        // A finished run may want a wake more than the floor before the next tick (an item start): then
        // look again at once. Only then: a wake within the floor of the next tick is that tick's, and
        // re-running the tick for every batch of runs that settles would scan every channel hundreds
        // of times a second while their planning is spread (channel/wake.ts).
        const pokeBeforeMs = config.clock() + next - MIN_TICK_MS;
        if (runs.length)
          void Promise.allSettled(runs).then((settled) => {
            if (settled.some((s) => s.status === 'rejected' || s.value < pokeBeforeMs)) tick.poke();
          });
        return next;
      },
      config.maxTickInterval ?? DEFAULT_TICK_CEILING_MS,
      onError,
    );
    this.tick = tick;
    const loops: Array<[TaskLoop, number]> = [
      [tick, 0],
      [new TaskLoop(() => core.sweep(), SWEEP_INTERVAL_MS, onError), SWEEP_INTERVAL_MS],
    ];
    if (config.channelManager) {
      // start() has just read the channel list: the next read is one interval away.
      const refresh = new TaskLoop(() => this.refreshChannels(), config.channelRefreshIntervalMs, onError);
      loops.push([refresh, config.channelRefreshIntervalMs]);
    }
    if (config.streamSwitchManager || core.assetManager.contentChangedFrom) {
      const refresh = async () => {
        // A change may concern what the log has planned: the channels it woke are due now.
        if ((await core.refreshSchedules()) > 0) this.tick?.poke();
      };
      loops.push([new TaskLoop(refresh, config.scheduleRefreshIntervalMs, onError), 0]);
    }
    if (config.cloudMetrics) {
      loops.push([
        new TaskLoop(() => this.flushMetrics(), METRICS_INTERVAL_MS, onError),
        METRICS_INTERVAL_MS,
      ]);
    }
    for (const [loop, initialDelayMs] of loops) loop.start(initialDelayMs);
    this.loops = loops.map(([loop]) => loop);
    core.events.subscribe((e) => {
      if (e.type === 'channel_added') tick.poke();
    });
  }

  private async refreshChannels(): Promise<void> {
    const manager = this.config.channelManager!;
    try {
      const list = await withTimeout(Promise.resolve(manager.getChannels()), 10_000, 'getChannels');
      const valid = (Array.isArray(list) ? list : []).filter(
        (c): c is Channel => typeof c?.id === 'string' && c.id !== '' && typeof c.name === 'string',
      );
      this.core.syncChannels(valid);
      this.tick?.poke();
    } catch (err) {
      this.core.log.warn('getChannels failed; keeping the current channels', { err });
    }
  }

  private flushMetrics(): void {
    const counts = this.core.metrics.take();
    counts.set('Channels', this.core.channelIds.length);
    process.stdout.write(`${emfLine(counts, this.config.clock())}\n`);
  }

  async stop(): Promise<void> {
    for (const loop of this.loops) loop.stop();
    this.loops = [];
    this.tick = undefined;
    // Let advances in flight finish: none may call the asset manager after stop() returns.
    await this.core.idle();
    if (this.config.cloudMetrics) this.flushMetrics();
    this.streams.closeAll();
    const server = this.server;
    this.server = undefined;
    if (server) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
    await this.ownStore?.close?.();
  }
}
