/**
 * The engine under test, in its own process (forked by bench-engine.ts with --expose-gc): the real
 * Engine with its HTTP server and timers, N Loop channels of the 12 s demo VOD served by a static origin
 * in this process (loaded once: parsed VODs are shared), and commands to measure it from inside.
 */
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Engine } from '../../engine-container/src/engine';
import { logEndMs } from '../../engine-container/src/playout/append';
import { hasLeases } from '../../engine-container/src/playout/log-store';
import { storeFromUrl } from '../../engine-container/src/stores/store-from-url';
import { startStaticServer } from '../../test/support/static-server';
import { channelId } from './channel-paths';
import { CountingStore } from './counting-store';
import { announceReady, serveRequests } from './ipc';
import { liveEdge, parseLivePlaylist } from './live-playlist';
import { CpuMeter, memorySnapshot } from './process-meter';
import { RotatingAssets } from './rotating-assets';
import {
  startCpuSampling,
  startHeapSampling,
  writeCpuSampling,
  writeHeapSampling,
} from './v8/inspector-sampling';
import { LoopLag } from './v8/loop-lag';

export interface EngineProcessInfo {
  port: number;
}

/** Per interval: channels whose next item was appended (lookahead) and whose item started playing. */
export interface ActivityBucket {
  appended: number;
  started: number;
}

export interface EdgeSample {
  /**
   * Per channel, rendered at atMs: media sequence number of the last listed segment, when it ends
   * (PDT + EXTINF) and its EXTINF.
   */
  edges: Array<{ atMs: number; lastIndex: number; endMs: number; segmentMs: number }>;
}

/** Given by the parent when this runs bundled from elsewhere (scripts/bench/bundle.ts). */
const STATIC_DIR =
  process.env.BENCH_STATIC_DIR ?? fileURLToPath(new URL('../../engine-container/static', import.meta.url));

async function main(): Promise<void> {
  const origin = await startStaticServer(STATIC_DIR);
  const demo = `${origin.url}/demo/master.m3u8`;
  // Shared-store mode (scripts/bench/shared-store/shared-store.ts): the store named by BENCH_STORE_URL, counted.
  const shared = process.env.BENCH_STORE_URL ? storeFromUrl(process.env.BENCH_STORE_URL) : undefined;
  if (shared && !hasLeases(shared)) throw new Error('BENCH_STORE_URL names a store without leases');
  const store = shared && hasLeases(shared) ? new CountingStore(shared) : undefined;
  const engine = new Engine(new RotatingAssets(() => [demo]), {
    port: 0,
    host: '127.0.0.1',
    defaultSlateUri: `${origin.url}/slate/master.m3u8`,
    ...(store ? { logStore: store } : {}),
  });
  await engine.start();
  const { core } = engine;

  const appended: number[] = [];
  const started: number[] = [];
  const problems = { vodErrors: 0, slates: 0 };
  core.events.subscribe((e) => {
    if (e.type === 'item_appended') appended.push(Date.now());
    else if (e.type === 'item_started') started.push(Date.now());
    else if (e.type === 'vod_error') problems.vodErrors++;
    else if (e.type === 'slate_inserted') problems.slates++;
  });
  const meter = new CpuMeter();
  const lag = new LoopLag();
  let channels = 0;
  /** Each channel's log end when addChannels returned: what it planned at start-up. */
  let startUpEnds: number[] = [];

  const playlistOf = (n: number) => {
    const runtime = core.channel(channelId(n));
    if (!runtime) throw new Error(`no channel ${channelId(n)}`);
    return runtime;
  };

  serveRequests({
    memory: () => memorySnapshot(),
    heapSamplingStart: () => startHeapSampling(),
    heapSamplingWrite: ({ file }: { file: string }) => writeHeapSampling(file),
    cpuSamplingStart: () => startCpuSampling(),
    cpuSamplingWrite: ({ file }: { file: string }) => writeCpuSampling(file),
    /** Adds channels until there are `count`, waits until each has its log, renders each playlist once. */
    addChannels: async ({ count }: { count: number }) => {
      const t0 = performance.now();
      for (; channels < count; channels++)
        core.upsertChannel({ id: channelId(channels), name: `Loop ${channels}` });
      await core.advanceAll();
      for (let n = 0; n < channels; n++) await playlistOf(n).playlists.mediaPlaylist('v0');
      const ms = performance.now() - t0;
      startUpEnds = Array.from({ length: channels }, (_, n) => logEndMs(playlistOf(n).playout.tail.items));
      return { channels, ms };
    },
    lagStart: ({ overMs }: { overMs: number }) => lag.start(overMs),
    lagStop: () => lag.stop(),
    // One line per collection on stdout while on (the parent's GcTrace reads them): the first planning's
    // and the idle window's collections, without the load's thousands of lines.
    traceGc: ({ on }: { on: boolean }) => setFlagsFromString(on ? '--trace-gc-nvp' : '--no-trace-gc-nvp'),
    meterStart: () => meter.start(),
    meterStop: () => meter.stop(),
    activity: ({ fromMs, bucketMs, buckets }: { fromMs: number; bucketMs: number; buckets: number }) => {
      const out: ActivityBucket[] = Array.from({ length: buckets }, () => ({ appended: 0, started: 0 }));
      const bucketOf = (t: number) => Math.floor((t - fromMs) / bucketMs);
      for (const t of appended) {
        const b = out[bucketOf(t)];
        if (b && t >= fromMs) b.appended++;
      }
      for (const t of started) {
        const b = out[bucketOf(t)];
        if (b && t >= fromMs) b.started++;
      }
      return out;
    },
    problems: () => problems,
    /**
     * Channels whose log has grown past what they planned at start-up: once every one has, the planning
     * wave of channels created at once is over (their first planning comes due within one item of it).
     */
    replanned: () => startUpEnds.filter((end, n) => logEndMs(playlistOf(n).playout.tail.items) > end).length,
    /** Store requests so far (shared-store mode; zeros otherwise). */
    storeOps: () => ({ ...(store?.ops ?? {}) }),
    /** Average playout log items held per channel (the tail grows to its steady size in ~2 minutes). */
    tailItems: () => {
      let items = 0;
      for (let n = 0; n < channels; n++) items += playlistOf(n).playout.tail.items.length;
      return channels ? items / channels : 0;
    },
    /** The earliest start of a not-yet-playing item on any channel (the next VOD change). */
    nextItemStartMs: () => {
      const now = Date.now();
      let next = Number.POSITIVE_INFINITY;
      for (let n = 0; n < channels; n++) {
        const item = playlistOf(n).playout.tail.items.find((i) => i.startMs > now);
        if (item) next = Math.min(next, item.startMs);
      }
      return next;
    },
    edges: async (): Promise<EdgeSample> => {
      const edges: EdgeSample['edges'] = [];
      for (let n = 0; n < channels; n++) {
        const atMs = Date.now();
        const playlist = parseLivePlaylist(await playlistOf(n).playlists.mediaPlaylist('v0'));
        const edge = liveEdge(playlist);
        const last = playlist.segments[playlist.segments.length - 1];
        if (edge && last) edges.push({ atMs, ...edge, segmentMs: last.durationMs });
      }
      return { edges };
    },
    stop: async () => {
      await engine.stop();
      await store?.close();
      await origin.close();
      setImmediate(() => process.exit(0));
    },
  });
  announceReady({ port: engine.port } satisfies EngineProcessInfo);
}

if (process.send) await main();
