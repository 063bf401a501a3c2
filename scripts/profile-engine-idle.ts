/**
 * A CPU profile of the bundled engine process holding N channels with no requests
 * (`tsx scripts/profile-engine-idle.ts [--channels 10000] [--skip 25] [--seconds 25] [--dir .cache/bench-prof]`):
 * what the tick, planning and VOD changes cost, without serving in the way. The profile covers the
 * window of --seconds that starts --skip seconds after the channels are ready: the steady state, past
 * each channel's first batch of planning beyond its lead. HEAP_PROF=1 also samples what is allocated
 * in that window, collected or not (an allocation every 4 KB: what the garbage collector has to
 * collect). Open the profiles in Chrome DevTools. Prints the engine's CPU per second over the window,
 * the profilers' own cost included (large with HEAP_PROF): bench-engine-ab.ts --idle-skip reads idle
 * CPU without them.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleAll } from './bench/bundle';
import { forkTs } from './bench/ipc';
import { sampleCpu } from './bench/pin';
import { containerNodeFlags } from './bench/v8/container-flags';

const { values: opts } = parseArgs({
  options: {
    channels: { type: 'string', default: '10000' },
    skip: { type: 'string', default: '25' },
    seconds: { type: 'string', default: '25' },
    dir: { type: 'string', default: fileURLToPath(new URL('../.cache/bench-prof', import.meta.url)) },
  },
});
const heap = Boolean(process.env.HEAP_PROF);
await mkdir(opts.dir, { recursive: true });
const [bundle] = await bundleAll([fileURLToPath(new URL('./bench/engine-process.ts', import.meta.url))]);
const engine = await forkTs<{ port: number }>(bundle!.file, [], {
  nodeFlags: ['--expose-gc', ...containerNodeFlags(), ...(process.env.TRACE_GC ? ['--trace-gc'] : [])],
  env: {
    LOG_LEVEL: 'warn',
    BENCH_STATIC_DIR: fileURLToPath(new URL('../engine-container/static', import.meta.url)),
    ...(heap ? { BENCH_HEAP_SAMPLING: 'allocations' } : {}),
  },
});
const { ms } = await engine.call<{ ms: number }>('addChannels', { count: Number(opts.channels) });
await new Promise((resolve) => setTimeout(resolve, Number(opts.skip) * 1000));
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
await engine.call('cpuSamplingStart');
if (heap) await engine.call('heapSamplingStart');
const cpu = await sampleCpu(engine.pid, Number(opts.seconds));
await engine.call('cpuSamplingWrite', { file: `${opts.dir}/idle-${stamp}.cpuprofile` });
if (heap) await engine.call('heapSamplingWrite', { file: `${opts.dir}/idle-${stamp}.heapprofile` });
console.log(
  `${opts.channels} channels ready in ${(ms / 1000).toFixed(2)} s; idle CPU ${cpu.avgPct.toFixed(2)} % ` +
    `from ${opts.skip} s on (per second: ${cpu.perSecondPct.map((x) => x.toFixed(0)).join(' ')}); ` +
    `profiles in ${opts.dir}`,
);
await engine.call('stop').catch(() => undefined);
await engine.kill(10_000);
