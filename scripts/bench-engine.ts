/**
 * Playout engine benchmark (`npm run bench:engine`, or
 * `tsx scripts/bench-engine.ts [--channels 1,100,1000] [--seconds 8] [--connections 32] [--sim-hours 24]
 * [--idle-seconds 5] [--out .cache/bench-engine.json] [--profile]`).
 * `--store redis,dynamodb` runs the shared-store mode instead (scripts/bench/shared-store.ts; channel
 * counts default to 100,1000 there, --store-idle-seconds 24 of upkeep, --seconds of load).
 *
 * First, 24 simulated hours of two channels on an injected clock measure drift (scripts/bench/drift-sim.ts).
 * Then for each channel count N, in a fresh engine process (node --expose-gc) with N Loop channels of the
 * 12 s demo VOD:
 *   - the ceiling: a raw node:http server (its own process) returning one prebuilt playlist of the same
 *     size, under the same load, measured just before and just after the engine (the machine is shared);
 *   - memory per channel: RSS and heap after forced GC, from 1 to N channels at steady state, / (N - 1);
 *   - idle CPU: % of one core with no requests, over at least --idle-seconds (default 5), extended until
 *     the channels' next VOD change is due mid-way through the coming load interval;
 *   - load: a forked load generator, fixed keep-alive connections, round-robin over the N media playlist
 *     URLs, latency per request; per second, how many channels planned or started a VOD meanwhile;
 *   - real time: each channel's live edge against the clock from steady state to the end of the load.
 * Prints tables and each target with the figure that decides it, writes everything to
 * .cache/bench-engine.json, and exits 0 unless the benchmark itself crashed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CeilingProcessInfo } from './bench/ceiling-process';
import { mediaPlaylistPath } from './bench/channel-paths';
import { simulateDrift } from './bench/drift-sim';
import type { ActivityBucket, EdgeSample, EngineProcessInfo } from './bench/engine-process';
import { type Child, forkTs } from './bench/ipc';
import type { LoadPlan, LoadResult } from './bench/load';
import type { CpuWindow, MemorySnapshot } from './bench/process-meter';
import { checkTargets, formatReport } from './bench/report';
import {
  type BenchResults,
  type ChannelsRun,
  intervalFigures,
  perChannelMemory,
  realTimeFigures,
  vodChangeFigures,
} from './bench/results';
import { formatSharedStoreReport, runSharedStoreBench, type StoreKind } from './bench/shared-store';

const { values: opts } = parseArgs({
  options: {
    channels: { type: 'string' },
    /** Shared-store mode: the stores to measure (redis, dynamodb). */
    store: { type: 'string' },
    'store-idle-seconds': { type: 'string', default: '24' },
    seconds: { type: 'string', default: '8' },
    'idle-seconds': { type: 'string' },
    connections: { type: 'string', default: '32' },
    'sim-hours': { type: 'string', default: '24' },
    out: { type: 'string', default: '.cache/bench-engine.json' },
    /** Writes a V8 CPU profile of each engine process to .cache/bench-prof/ (open in Chrome DevTools). */
    profile: { type: 'boolean', default: false },
  },
});
const CHANNELS = (opts.channels ?? (opts.store ? '100,1000' : '1,100,1000')).split(',').map(Number);
const SECONDS = Number(opts.seconds);
const IDLE_SECONDS = Number(opts['idle-seconds'] ?? 5);
const CONNECTIONS = Number(opts.connections);
const SIM_HOURS = Number(opts['sim-hours']);
/** Not measured: lets both processes' JIT settle (the first second after it was still slow with 1 s). */
const WARMUP_MS = 2000;
const BUCKET_MS = 1000;

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const ENGINE_PROCESS = here('./bench/engine-process.ts');
const CEILING_PROCESS = here('./bench/ceiling-process.ts');
const LOAD_PROCESS = here('./bench/load.ts');
const PROFILE_DIR = here('../.cache/bench-prof');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const progress = (msg: string) => process.stderr.write(`[bench:engine] ${msg}\n`);

interface Meterable {
  call<T>(cmd: string, args?: unknown): Promise<T>;
}

/** A fresh load-generator process (started before it is needed, so its start-up is not measured). */
function loadGenerator(): Promise<Child<unknown>> {
  return forkTs(LOAD_PROCESS, []);
}

async function measureLoad(
  server: Meterable,
  loader: Child<unknown>,
  port: number,
  paths: string[],
): Promise<LoadResult & { serverCpu: CpuWindow }> {
  const plan: LoadPlan = {
    port,
    paths,
    connections: CONNECTIONS,
    warmupMs: WARMUP_MS,
    durationMs: SECONDS * 1000,
    bucketMs: BUCKET_MS,
  };
  await server.call('meterStart');
  try {
    const result = await loader.call<LoadResult>('run', plan);
    return { ...result, serverCpu: await server.call<CpuWindow>('meterStop') };
  } finally {
    await loader.kill();
  }
}

/**
 * Waits (at least minMs) until the channels' next VOD change will fall in the middle of the measured
 * interval, so the lookahead append before it and the change itself are both measured under load.
 */
async function untilVodChangeIsDue(engine: Meterable, minMs: number): Promise<void> {
  const durationMs = SECONDS * 1000;
  const lo = WARMUP_MS + 0.4 * durationMs;
  const hi = WARMUP_MS + 0.7 * durationMs;
  await sleep(minMs);
  for (let attempt = 0; attempt < 8; attempt++) {
    const inMs = (await engine.call<number>('nextItemStartMs')) - Date.now();
    if (!Number.isFinite(inMs) || (inMs >= lo && inMs <= hi)) return;
    // Too early: wait until it is mid-interval away. Too late: let it pass and aim at the next one.
    await sleep(inMs > hi ? inMs - (lo + hi) / 2 : inMs + 50);
  }
}

/** Everything measured on the engine process for one channel count (a fresh process each time). */
async function measureEngine(channels: number, paths: string[]): Promise<Omit<ChannelsRun, 'ceiling'>> {
  const nodeFlags = ['--expose-gc'];
  if (opts.profile) nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`);
  const engine = await forkTs<EngineProcessInfo>(ENGINE_PROCESS, [], {
    nodeFlags,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
  try {
    const empty = await engine.call<MemorySnapshot>('memory');
    progress(`${channels} channels: starting them`);
    // One channel first: what every engine holds once it plays anything (the parsed VOD, compiled code)
    // is not a per-channel cost. Memory per channel is the slope from 1 to N channels.
    await engine.call('addChannels', { count: 1 });
    await sleep(500);
    const one = await engine.call<MemorySnapshot>('memory');
    const added = await engine.call<{ ms: number }>('addChannels', { count: channels });
    await sleep(1000);
    const steady = await engine.call<MemorySnapshot>('memory');
    const steadyItems = await engine.call<number>('tailItems');
    const edgesBefore = await engine.call<EdgeSample>('edges');

    progress(`${channels} channels: idle`);
    const loader = await loadGenerator();
    await engine.call('meterStart');
    const idleFromMs = Date.now();
    await untilVodChangeIsDue(engine, IDLE_SECONDS * 1000);
    const idleCpu = await engine.call<CpuWindow>('meterStop');
    const [idleActivity] = await engine.call<ActivityBucket[]>('activity', {
      fromMs: idleFromMs,
      bucketMs: Date.now() - idleFromMs,
      buckets: 1,
    });

    progress(`${channels} channels: load`);
    const engineRun = await measureLoad(engine, loader, engine.info.port, paths);
    const activity = await engine.call<ActivityBucket[]>('activity', {
      fromMs: engineRun.startedAtMs,
      bucketMs: BUCKET_MS,
      buckets: engineRun.buckets.length,
    });
    const edgesAfter = await engine.call<EdgeSample>('edges');
    const afterLoad = await engine.call<MemorySnapshot>('memory');
    const afterLoadItems = await engine.call<number>('tailItems');
    const problems = await engine.call<{ vodErrors: number; slates: number }>('problems');
    const intervals = intervalFigures(engineRun, activity);
    return {
      channels,
      startupMs: added.ms,
      engine: engineRun,
      memory: { empty, one, steady, afterLoad },
      perChannel: perChannelMemory(one, steady, channels),
      perChannelAfterLoad: perChannelMemory(one, afterLoad, channels),
      tailItems: { steady: steadyItems, afterLoad: afterLoadItems },
      idle: { ...idleCpu, appended: idleActivity?.appended ?? 0, started: idleActivity?.started ?? 0 },
      intervals,
      vodChange: vodChangeFigures(intervals),
      realTime: realTimeFigures(edgesBefore, edgesAfter),
      problems,
    };
  } finally {
    await engine.call('stop').catch(() => undefined);
    await engine.kill(10_000);
  }
}

/**
 * The ceiling is measured just before and just after the engine (with the engine process gone): on a
 * shared machine, their mean is the fairest comparison, and their spread shows how noisy the run was.
 */
async function measureChannels(channels: number, ceiling: Child<CeilingProcessInfo>): Promise<ChannelsRun> {
  const paths = Array.from({ length: channels }, (_, n) => mediaPlaylistPath(n));
  progress(`${channels} channels: ceiling`);
  const before = await measureLoad(ceiling, await loadGenerator(), ceiling.info.port, paths);
  const run = await measureEngine(channels, paths);
  progress(`${channels} channels: ceiling again`);
  const after = await measureLoad(ceiling, await loadGenerator(), ceiling.info.port, paths);
  return { ...run, ceiling: { rps: (before.rps + after.rps) / 2, before, after } };
}

async function sharedStoreMain(stores: StoreKind[]): Promise<void> {
  const runs = await runSharedStoreBench({
    stores,
    channels: CHANNELS,
    idleSeconds: Number(opts['store-idle-seconds']),
    loadSeconds: SECONDS,
    connections: CONNECTIONS,
    engineProcess: ENGINE_PROCESS,
    loadProcess: LOAD_PROCESS,
    progress,
  });
  process.stdout.write(`${formatSharedStoreReport(runs)}\n`);
  const out = opts.out.replace(/\.json$/, '-shared-store.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify({ startedAt: new Date().toISOString(), runs }, null, 2)}\n`);
  progress(`results written to ${out}`);
}

async function main(): Promise<void> {
  if (opts.store) {
    const stores = opts.store.split(',');
    const unknown = stores.filter((s) => s !== 'redis' && s !== 'dynamodb');
    if (unknown.length) throw new Error(`--store: unknown store ${unknown.join(', ')} (redis, dynamodb)`);
    return sharedStoreMain(stores as StoreKind[]);
  }
  const startedAt = new Date().toISOString();
  progress(`simulating ${SIM_HOURS} h of playout`);
  const { samplePlaylist, ...drift } = await simulateDrift(SIM_HOURS);

  const ceiling = await forkTs<CeilingProcessInfo>(CEILING_PROCESS, []);
  const runs: ChannelsRun[] = [];
  try {
    await ceiling.call('setBody', { text: samplePlaylist });
    for (const n of CHANNELS) runs.push(await measureChannels(n, ceiling));
  } finally {
    await ceiling.call('stop').catch(() => undefined);
    await ceiling.kill(5000);
  }

  const results: BenchResults = {
    startedAt,
    machine: { cpus: availableParallelism(), loadAverage: loadavg(), node: process.version },
    options: {
      channels: CHANNELS,
      seconds: SECONDS,
      idleSeconds: IDLE_SECONDS,
      connections: CONNECTIONS,
      simHours: SIM_HOURS,
    },
    ceilingBodyBytes: Buffer.byteLength(samplePlaylist),
    runs,
    drift,
  };
  const checks = checkTargets(results);
  process.stdout.write(`${formatReport(results, checks)}\n`);
  await mkdir(dirname(opts.out), { recursive: true });
  await writeFile(opts.out, `${JSON.stringify({ ...results, targets: checks }, null, 2)}\n`);
  progress(`results written to ${opts.out}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
