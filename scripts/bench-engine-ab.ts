/**
 * Two (or more) versions of the engine, measured in turns on one machine (`tsx scripts/bench-engine-ab.ts`):
 *   --bundle out.mjs                     bundles this tree's engine process (scripts/bench/bundle.ts) to out.mjs;
 *   [--channels 1000] [--rounds 2] [--seconds 6] [--idle-seconds 3] [--idle-skip 0] a.mjs b.mjs[@--flag,--flag]
 *                                        runs each bundle (with its node flags after @) in turn, rounds times;
 *                                        --idle-skip 25 --idle-seconds 60 reads idle in the steady state (the
 *                                        first seconds plan the lead every channel starts with).
 *   --side-by-side [--channels 10000] [--rounds 3] [--idle-skip 25] [--idle-seconds 52] a.mjs b.mjs
 *                                        idle only, every bundle at once on one core: each reads the host
 *                                        in the same seconds (sideBySide).
 * Per run, for one fresh engine process with N channels: the CPU seconds to start them, idle CPU, then
 * wrk as in bench:engine with what V8 allocated and paused for per request (scripts/bench/v8/gc-trace.ts),
 * the engine's CPU per request and RSS after forced GC before and after the load. On a shared machine
 * req/s and latency measure the machine; CPU seconds and allocation per request still compare versions.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { bundleForNode } from './bench/bundle';
import { mediaPlaylistPath } from './bench/channel-paths';
import type { ActivityBucket } from './bench/engine-process';
import { forkTs } from './bench/ipc';
import { cpuSeconds, machineLoad, pinProcess, sampleCpu } from './bench/pin';
import type { MemorySnapshot } from './bench/process-meter';
import { containerNodeFlags } from './bench/v8/container-flags';
import { type GcSpan, GcTrace } from './bench/v8/gc-trace';
import type { LoopStall } from './bench/v8/loop-lag';
import { runWrk, writePaths } from './bench/wrk';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    bundle: { type: 'string' },
    channels: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '6' },
    'idle-seconds': { type: 'string', default: '3' },
    'idle-skip': { type: 'string', default: '0' },
    'side-by-side': { type: 'boolean', default: false },
  },
});
const here = (p: string) => new URL(p, import.meta.url).pathname;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

/** A bundle's engine process ("a.mjs@--flag,--flag"), pinned to core 0, tracing its collections. */
async function startEngine(spec: string) {
  const [bundle, flags = ''] = spec.split('@');
  const gc = new GcTrace();
  const engine = await forkTs<{ port: number }>(bundle!, [], {
    stdout: gc.stream,
    nodeFlags: [
      '--expose-gc',
      '--trace-gc-nvp',
      ...containerNodeFlags(),
      ...flags.split(',').filter(Boolean),
    ],
    env: { LOG_LEVEL: 'warn', BENCH_STATIC_DIR: here('../engine-container/static') },
  });
  pinProcess(engine.pid, '0');
  return { engine, gc };
}

async function stopEngine({ engine }: Awaited<ReturnType<typeof startEngine>>): Promise<void> {
  await engine.call('stop').catch(() => undefined);
  await engine.kill(5000);
}

/**
 * Idle only, every bundle's engine at once on the same core, N channels each: on a host whose cost of
 * reading memory left untouched moves by a third from one minute to the next (docs/benchmarks.md,
 * seventeenth pass), engines measured in turns compare minutes, not versions; side by side, every
 * engine reads the same seconds. Each idles at a few % of the core, so they hardly delay one another.
 * The start order turns round each round.
 */
async function sideBySide(specs: string[], channels: number, round: number): Promise<string[]> {
  const order = specs.map((_, i) => specs[(i + round) % specs.length]!);
  const engines = await Promise.all(order.map(startEngine));
  try {
    for (const { engine } of engines) await engine.call('addChannels', { count: channels });
    await new Promise((resolve) => setTimeout(resolve, Number(opts['idle-skip']) * 1000));
    const fromMs = Date.now();
    const cpu = await Promise.all(
      engines.map(({ engine }) => sampleCpu(engine.pid, Number(opts['idle-seconds']))),
    );
    const lines: string[] = [];
    for (const [i, { engine }] of engines.entries()) {
      const [work] = await engine.call<ActivityBucket[]>('activity', {
        fromMs,
        bucketMs: Date.now() - fromMs + 1,
        buckets: 1,
      });
      const cpuUs = cpu[i]!.avgPct * 1e4 * Number(opts['idle-seconds']);
      lines.push(
        `${order[i]!.split('/').pop()} ${channels} ch side by side, load ${machineLoad().split(' ')[0]}: idle ${cpu[i]!.avgPct.toFixed(2)} %` +
          ` (worst s ${cpu[i]!.worstSecondPct.toFixed(0)} %; ${work!.appended} items appended, ${work!.started} started:` +
          ` ${(cpuUs / Math.max(1, work!.appended)).toFixed(1)} us CPU per item appended); idle % per s: ${cpu[i]!.perSecondPct.map((p) => p.toFixed(0)).join(' ')}`,
      );
    }
    return lines;
  } finally {
    await Promise.all(engines.map(stopEngine));
  }
}

async function measure(spec: string, channels: number, pathsFile: string): Promise<string> {
  const { engine, gc } = await startEngine(spec);
  try {
    const cpu0 = cpuSeconds(engine.pid);
    const added = await engine.call<{ ms: number }>('addChannels', { count: channels });
    const startCpuS = cpuSeconds(engine.pid) - cpu0;
    const idle = await engine.call<MemorySnapshot>('memory');
    await new Promise((resolve) => setTimeout(resolve, Number(opts['idle-skip']) * 1000));
    const [idleFromMs, gcIdleBefore] = [Date.now(), gc.mark()];
    const idleCpu = await sampleCpu(engine.pid, Number(opts['idle-seconds']));
    const [idleWork] = await engine.call<ActivityBucket[]>('activity', {
      fromMs: idleFromMs,
      bucketMs: Date.now() - idleFromMs + 1,
      buckets: 1,
    });
    const gcIdle = gc.since(gcIdleBefore);
    const idleCpuUs = idleCpu.avgPct * 1e4 * Number(opts['idle-seconds']);
    const perItem = (x: number) => x / Math.max(1, idleWork!.appended);
    const plan = { port: engine.info.port, pathsFile, connections: 50, cores: '1' };
    await runWrk({ ...plan, seconds: 2 });
    const [cpuBefore, gcBefore, loadStartMs] = [cpuSeconds(engine.pid), gc.mark(), Date.now()];
    await engine.call('lagStart', { overMs: 10 });
    const load = await runWrk({ ...plan, seconds: Number(opts.seconds) });
    const [cpu, gcLoad] = [cpuSeconds(engine.pid) - cpuBefore, gc.since(gcBefore)];
    const stalls = await engine.call<LoopStall[]>('lagStop');
    if (process.env.BENCH_STALLS_FILE) await writeFile(process.env.BENCH_STALLS_FILE, JSON.stringify(stalls));
    const activity = await engine.call<ActivityBucket[]>('activity', {
      fromMs: loadStartMs,
      bucketMs: 100,
      buckets: Math.ceil((Date.now() - loadStartMs) / 100),
    });
    const after = await engine.call<MemorySnapshot>('memory');
    const perRequest = (x: number) => x / Math.max(1, load.requests);
    return [
      `${spec.split('/').pop()} ${channels} ch, load ${machineLoad().split(' ')[0]}:`,
      `start ${(added.ms / 1000).toFixed(2)} s (CPU ${startCpuS.toFixed(2)} s), idle ${idleCpu.avgPct.toFixed(2)} % (worst s ${idleCpu.worstSecondPct.toFixed(0)} %;`,
      `${idleWork!.appended} items appended, ${idleWork!.started} started: ${perItem(idleCpuUs).toFixed(1)} us CPU per item appended,`,
      `${(perItem(gcIdle.allocatedBytes) / 1024).toFixed(2)} KB allocated and ${(perItem(gcIdle.pauseMs) * 1000).toFixed(1)} us GC pauses per item (${describeKinds(gcIdle)}));`,
      `${load.rps.toFixed(0)} req/s, p99 ${load.latency.p99Ms.toFixed(1)} ms, server ${((100 * cpu) / load.seconds).toFixed(0)} %,`,
      `${(perRequest(cpu) * 1e6).toFixed(1)} us CPU/req, ${(perRequest(gcLoad.allocatedBytes) / 1024).toFixed(2)} KB allocated/req,`,
      `GC pauses ${(perRequest(gcLoad.pauseMs) * 1000).toFixed(1)} us/req (${describeKinds(gcLoad)});`,
      `RSS ${mb(idle.rssBytes)} -> ${mb(after.rssBytes)} MB (${(after.rssBytes / idle.rssBytes).toFixed(2)}x; V8 heap ${mb(idle.heapTotalBytes)} -> ${mb(after.heapTotalBytes)} MB);`,
      `idle % per s: ${idleCpu.perSecondPct.map((p) => p.toFixed(0)).join(' ')};`,
      `main thread blocked > 10 ms under load: ${stalls.length} times, longest ${describeStalls(stalls.slice(0, 5), loadStartMs, activity)};`,
      `all, in time order (s:ms): ${[...stalls]
        .sort((a, b) => a.atMs - b.atMs)
        .map((x) => `${((x.atMs - loadStartMs) / 1000).toFixed(2)}:${x.lateMs.toFixed(0)}`)
        .join(' ')}`,
    ].join(' ');
  } finally {
    await stopEngine({ engine, gc });
  }
}

/** "12 s, 1 mc; longest 38.0 ms mc": the collections of a span by kind, and its longest pause. */
function describeKinds(span: GcSpan): string {
  const kinds = Object.entries(span.byKind).map(([kind, n]) => `${n} ${kind}`);
  return `${kinds.join(', ') || 'none'}; longest ${span.longestPauseMs.toFixed(1)} ms ${span.longestKind}`;
}

/** "+3.41 s 87 ms (1200 started, 30 appended)": when, how long, and the engine's activity in that 100 ms. */
function describeStalls(stalls: LoopStall[], fromMs: number, activity: ActivityBucket[]): string {
  return stalls
    .map((s) => {
      const b = activity[Math.floor((s.atMs - s.lateMs - fromMs) / 100)];
      const what = b ? ` (${b.started} started, ${b.appended} appended)` : '';
      return `+${((s.atMs - fromMs) / 1000).toFixed(2)} s ${s.lateMs.toFixed(0)} ms${what}`;
    })
    .join(', ');
}

const rounds = Number(opts.rounds);
if (opts.bundle) {
  console.log(await bundleForNode(here('./bench/engine-process.ts'), opts.bundle));
} else if (positionals.length === 0) {
  throw new Error('give the bundles to compare (see --bundle)');
} else if (opts['side-by-side']) {
  for (let round = 0; round < rounds; round++)
    for (const line of await sideBySide(positionals, Number(opts.channels), round)) console.log(line);
} else {
  const channels = Number(opts.channels);
  const paths = Array.from({ length: channels }, (_, n) => mediaPlaylistPath(n));
  await mkdir(here('../.cache'), { recursive: true });
  const pathsFile = await writePaths(here('../.cache'), `ab-paths-${channels}`, paths);
  for (let round = 0; round < rounds; round++)
    for (const spec of positionals) console.log(await measure(spec, channels, pathsFile));
}
