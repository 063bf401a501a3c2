/**
 * Playout engine benchmark (`npm run bench:engine`, or `tsx scripts/bench-engine.ts [--channels 1,1000,10000]
 * [--seconds 10] [--connections 50] [--idle-seconds 52] [--sim-hours 24] [--engine-core 0] [--load-core 1]
 * [--out .cache/bench-engine.json] [--profile] [--host-seconds 20]`). Needs wrk (`apt-get install -y wrk`) and
 * taskset (Linux).
 * `--store redis,dynamodb` runs the shared-store mode instead (scripts/bench/shared-store/shared-store.ts; channel
 * counts default to 100,1000 there, --store-idle-seconds 24 of upkeep, --seconds of load).
 *
 * First, --sim-hours simulated hours of two channels on an injected clock measure drift (scripts/bench/drift-sim.ts),
 * then what the host makes a read of memory left 40 s cost against a warm one (scripts/bench/cold-reads.ts,
 * --host-seconds timed; 0 skips it), printed beside the idle figure, which it moves.
 * The engine process (scripts/bench/engine-process.ts) and the ceiling are bundled with esbuild as the
 * container bundles the engine, and run with plain node. For each channel count N:
 *   - the ceiling: a raw node:http server replaying the engine's own answers (every path's status, headers
 *     and bytes, captured once from the engine once its channels are ready), loaded by wrk exactly like
 *     the engine, twice right after the engine's process has ended (the machine may be shared);
 *   - a fresh engine process (node --expose-gc) with N Loop channels of the 12 s demo VOD, created at
 *     once: the time until every channel has rendered its first playlist;
 *   - CPU per second until every channel has planned past its start-up (channels created at once plan
 *     their first batches together: a wave, printed on its own), then idle CPU per second, read from
 *     /proc, over one planning cycle (every channel plans in it), each with its mark-compacts; then
 *     memory after forced GC (idle: per channel, from 1 to N channels, / (N - 1)), also printed as read
 *     1 s after the channels were created;
 *   - load: wrk, round-robin over the N media playlist URLs; the live edge against the clock.
 * Servers are pinned to --engine-core, wrk to --load-core: each has a core of its own, and wrk's own CPU
 * shows it was not the limit. Prints the load average, tables and each target with the figure that
 * decides it, writes everything to --out, and exits 0 unless the benchmark itself crashed.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { PLAN_BATCH_MS } from '../engine-container/src/channel/wake';
import { bundleAll } from './bench/bundle';
import type { CaptureSummary, CeilingProcessInfo } from './bench/ceiling/ceiling-process';
import { mediaPlaylistPath } from './bench/channel-paths';
import { type ColdReads, describeColdReads } from './bench/cold-reads';
import { simulateDrift } from './bench/drift-sim';
import type { EdgeSample, EngineProcessInfo } from './bench/engine-process';
import { type Child, forkTs } from './bench/ipc';
import { cpuSeconds, machineLoad, pinProcess, sampleCpu, sampleCpuWhile } from './bench/pin';
import type { MemorySnapshot } from './bench/process-meter';
import { checkTargets, formatReport } from './bench/report';
import {
  type BenchResults,
  type ChannelsRun,
  type LoadRun,
  perChannelMemory,
  realTimeFigures,
} from './bench/results';
import {
  formatSharedStoreReport,
  runSharedStoreBench,
  type StoreKind,
} from './bench/shared-store/shared-store';
import { containerNodeFlags } from './bench/v8/container-flags';
import { collectionsByKind, GcTrace, markCompactSeconds } from './bench/v8/gc-trace';
import { runWrk, writePaths, wrkAvailable } from './bench/wrk';

/** The demo VOD every channel loops (engine-container/static/demo). */
const DEMO_VOD_S = 12;
/**
 * One planning cycle: a channel plans its batch, up to twice PLAN_BATCH_MS past its lead, to the end of
 * a VOD, so it plans again within that and one VOD more. Idle read over this long sees every channel plan.
 */
const PLANNING_CYCLE_S = Math.ceil((2 * PLAN_BATCH_MS) / 1000 + DEMO_VOD_S);

const { values: opts } = parseArgs({
  options: {
    channels: { type: 'string' },
    /** Shared-store mode: the stores to measure (redis, dynamodb). */
    store: { type: 'string' },
    'store-idle-seconds': { type: 'string', default: '24' },
    seconds: { type: 'string', default: '10' },
    'idle-seconds': { type: 'string', default: String(PLANNING_CYCLE_S) },
    connections: { type: 'string', default: '50' },
    'sim-hours': { type: 'string', default: '24' },
    'engine-core': { type: 'string', default: '0' },
    'load-core': { type: 'string', default: '1' },
    out: { type: 'string', default: '.cache/bench-engine.json' },
    /** Extra node flags for the engine process, comma-separated (e.g. --max-semi-space-size=2): to try V8 levers. */
    'engine-node-flags': { type: 'string', default: '' },
    /** Writes a V8 CPU profile and a sampling heap profile (live after the load) of each engine process to .cache/bench-prof/. */
    profile: { type: 'boolean', default: false },
    /** Seconds of the host's cold reads timed before the engines start (bench-cold-reads.ts); 0 skips them. */
    'host-seconds': { type: 'string', default: '20' },
  },
});
const CHANNELS = (opts.channels ?? (opts.store ? '100,1000' : '1,1000,10000')).split(',').map(Number);
const SECONDS = Number(opts.seconds);
const IDLE_SECONDS = Number(opts['idle-seconds']);
const CONNECTIONS = Number(opts.connections);
const SIM_HOURS = Number(opts['sim-hours']);
const ENGINE_CORE = opts['engine-core'];
const LOAD_CORE = opts['load-core'];
const WARMUP_S = 2;
/** The longest the first planning after creation is waited for before the idle window starts anyway. */
const FIRST_PLANNING_MAX_S = 90;
/** The container's own flags (its Dockerfile's CMD), then any tried with --engine-node-flags. */
const ENGINE_NODE_FLAGS = [...containerNodeFlags(), ...opts['engine-node-flags'].split(',').filter(Boolean)];

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const ENGINE_SOURCE = here('./bench/engine-process.ts');
const CEILING_SOURCE = here('./bench/ceiling/ceiling-process.ts');
const LOAD_PROCESS = here('./bench/shared-store/load.ts');
const COLD_READS = here('./bench-cold-reads.ts');
const HOST_SECONDS = Number(opts['host-seconds']);
const STATIC_DIR = here('../engine-container/static');
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ?? here('../.cache/bench-prof');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const progress = (msg: string) => process.stderr.write(`[bench:engine] ${msg}\n`);

interface Bundles {
  engine: string;
  ceiling: string;
  engineBytes: number;
}

/**
 * The host's cold reads at 10,000 groups, each left 40 s (bench-cold-reads.ts), in a process of its
 * own (this one's execArgv: tsx), so its 200 MB of objects are gone before the engines start.
 */
async function measureHostColdReads(): Promise<ColdReads> {
  const args = [...process.execArgv, COLD_READS, '--json', '--seconds', String(HOST_SECONDS)];
  const { stdout } = await promisify(execFile)(process.execPath, args);
  return JSON.parse(stdout) as ColdReads;
}

/** A warm-up run (not counted), then the measured one with the server's CPU over it. */
async function measureLoad(pid: number, port: number, pathsFile: string): Promise<LoadRun> {
  const plan = { port, pathsFile, connections: CONNECTIONS, cores: LOAD_CORE };
  await runWrk({ ...plan, seconds: WARMUP_S });
  const cpuBefore = cpuSeconds(pid);
  const result = await runWrk({ ...plan, seconds: SECONDS });
  const serverCpuPct = ((cpuSeconds(pid) - cpuBefore) / result.seconds) * 100;
  return { ...result, serverCpuPct };
}

/** Everything measured on the engine process for one channel count (a fresh process each time). */
async function measureEngine(
  bundles: Bundles,
  channels: number,
  pathsFile: string,
  ceiling: Child<CeilingProcessInfo>,
): Promise<Omit<ChannelsRun, 'ceiling'> & { captured: CaptureSummary }> {
  const nodeFlags = ['--expose-gc', ...ENGINE_NODE_FLAGS];
  if (opts.profile) await mkdir(PROFILE_DIR, { recursive: true });
  if (opts.profile) nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`);
  // The engine's collections over the idle window (its other output goes on to stderr, as before).
  const gc = new GcTrace(process.stderr);
  const engine = await forkTs<EngineProcessInfo>(bundles.engine, [], {
    nodeFlags,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', BENCH_STATIC_DIR: STATIC_DIR },
    stdout: gc.stream,
  });
  pinProcess(engine.pid, ENGINE_CORE);
  try {
    const empty = await engine.call<MemorySnapshot>('memory');
    if (opts.profile) await engine.call('heapSamplingStart');
    progress(`${channels} channels: creating them`);
    // One channel first: what every engine holds once it plays anything (the parsed VOD, compiled code)
    // is not a per-channel cost. Memory per channel is the slope from 1 to N channels.
    await engine.call('addChannels', { count: 1 });
    await sleep(500);
    const one = await engine.call<MemorySnapshot>('memory');
    const added = await engine.call<{ ms: number }>('addChannels', { count: channels });
    await sleep(1000);
    const steady = await engine.call<MemorySnapshot>('memory');
    const steadyItems = await engine.call<number>('tailItems');
    progress(`${channels} channels: capturing every playlist for the ceiling`);
    const captured = await ceiling.call<CaptureSummary>('capture', { port: engine.info.port, pathsFile });

    // Channels created at once plan their first batch within one item of their start-up, all together:
    // a wave that a running engine meets once, not its idle cost. It is measured on its own, and idle
    // is read after it.
    progress(`${channels} channels: until every one has planned past its start-up`);
    await engine.call('traceGc', { on: true });
    const waveFromMs = Date.now();
    let replanned = 0;
    const firstPlanning = await sampleCpuWhile(engine.pid, async (sampled) => {
      replanned = await engine.call<number>('replanned');
      return replanned < channels && sampled < FIRST_PLANNING_MAX_S;
    });
    progress(`${channels} channels: idle for ${IDLE_SECONDS} s`);
    const idleFromMs = Date.now();
    const idleCpu = await sampleCpu(engine.pid, IDLE_SECONDS);
    await engine.call('traceGc', { on: false });
    const [idleActivity] = await engine.call<Array<{ appended: number; started: number }>>('activity', {
      fromMs: idleFromMs,
      bucketMs: Date.now() - idleFromMs,
      buckets: 1,
    });
    const idle = await engine.call<MemorySnapshot>('memory');
    const idleItems = await engine.call<number>('tailItems');

    progress(`${channels} channels: load`);
    const edgesBefore = await engine.call<EdgeSample>('edges');
    const load = await measureLoad(engine.pid, engine.info.port, pathsFile);
    const edgesAfter = await engine.call<EdgeSample>('edges');
    const afterLoad = await engine.call<MemorySnapshot>('memory');
    if (opts.profile)
      await engine.call('heapSamplingWrite', { file: `${PROFILE_DIR}/heap-${channels}.heapprofile` });
    const afterLoadItems = await engine.call<number>('tailItems');
    const problems = await engine.call<{ vodErrors: number; slates: number }>('problems');
    return {
      channels,
      captured,
      startupMs: added.ms,
      engine: load,
      memory: { empty, one, steady, idle, afterLoad },
      perChannel: perChannelMemory(one, idle, channels),
      perChannelAfterLoad: perChannelMemory(one, afterLoad, channels),
      tailItems: { steady: steadyItems, idle: idleItems, afterLoad: afterLoadItems },
      firstPlanning: {
        ...firstPlanning,
        replanned,
        markCompactSeconds: markCompactSeconds(gc.events, waveFromMs, firstPlanning.perSecondPct.length),
      },
      idle: {
        ...idleCpu,
        appended: idleActivity?.appended ?? 0,
        started: idleActivity?.started ?? 0,
        collections: collectionsByKind(
          gc.events,
          idleFromMs,
          idleFromMs + idleCpu.perSecondPct.length * 1000,
        ),
        markCompactSeconds: markCompactSeconds(gc.events, idleFromMs, idleCpu.perSecondPct.length),
      },
      realTime: realTimeFigures(edgesBefore, edgesAfter),
      problems,
    };
  } finally {
    await engine.call('stop').catch(() => undefined);
    await engine.kill(10_000);
  }
}

/** The engine, then the ceiling twice with the engine's answers (never running at the same time). */
async function measureChannels(
  bundles: Bundles,
  channels: number,
  ceiling: Child<CeilingProcessInfo>,
  dir: string,
): Promise<ChannelsRun> {
  const paths = Array.from({ length: channels }, (_, n) => mediaPlaylistPath(n));
  const pathsFile = await writePaths(dir, `paths-${channels}`, paths);
  const run = await measureEngine(bundles, channels, pathsFile, ceiling);
  progress(`${channels} channels: ceiling (the engine's answers replayed)`);
  const first = await measureLoad(ceiling.pid, ceiling.info.port, pathsFile);
  const second = await measureLoad(ceiling.pid, ceiling.info.port, pathsFile);
  return { ...run, ceiling: { rps: (first.rps + second.rps) / 2, first, second } };
}

async function sharedStoreMain(stores: StoreKind[]): Promise<void> {
  const runs = await runSharedStoreBench({
    stores,
    channels: CHANNELS,
    idleSeconds: Number(opts['store-idle-seconds']),
    loadSeconds: SECONDS,
    connections: CONNECTIONS,
    engineProcess: ENGINE_SOURCE,
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
  if (!wrkAvailable()) throw new Error('wrk not found: install it (Debian/Ubuntu: apt-get install -y wrk)');
  if (!existsSync('/proc/self/stat')) throw new Error('this benchmark reads /proc (Linux only)');
  if (availableParallelism() < 2)
    progress('only one core: the engine and wrk share it, figures are meaningless');
  const startedAt = new Date().toISOString();
  const loadAverageBefore = machineLoad();
  progress(`load average ${loadAverageBefore}; bundling the engine process (esbuild, as the container)`);
  const [engine, ceilingBundle] = await bundleAll([ENGINE_SOURCE, CEILING_SOURCE]);
  const bundles: Bundles = { engine: engine!.file, ceiling: ceilingBundle!.file, engineBytes: engine!.bytes };
  progress(`simulating ${SIM_HOURS} h of playout`);
  const { samplePlaylist: _sample, ...drift } = await simulateDrift(SIM_HOURS);
  let host: ColdReads | undefined;
  if (HOST_SECONDS > 0) {
    progress(`the host's cold reads (${HOST_SECONDS} s timed, after one untimed cycle of 40 s)`);
    host = await measureHostColdReads();
    progress(describeColdReads(host));
  }

  const ceiling = await forkTs<CeilingProcessInfo>(bundles.ceiling, []);
  pinProcess(ceiling.pid, ENGINE_CORE);
  const runs: ChannelsRun[] = [];
  try {
    for (const n of CHANNELS) runs.push(await measureChannels(bundles, n, ceiling, dirname(bundles.engine)));
  } finally {
    await ceiling.call('stop').catch(() => undefined);
    await ceiling.kill(5000);
  }

  const results: BenchResults = {
    startedAt,
    machine: {
      cpus: availableParallelism(),
      loadAverageBefore,
      loadAverageAfter: machineLoad(),
      node: process.version,
    },
    options: {
      channels: CHANNELS,
      seconds: SECONDS,
      idleSeconds: IDLE_SECONDS,
      connections: CONNECTIONS,
      simHours: SIM_HOURS,
      engineCores: ENGINE_CORE,
      loadCores: LOAD_CORE,
      engineNodeFlags: ENGINE_NODE_FLAGS.join(' '),
    },
    engineBundleBytes: bundles.engineBytes,
    host,
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
