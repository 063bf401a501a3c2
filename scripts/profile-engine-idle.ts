/**
 * A CPU profile of the bundled engine process holding N channels with no requests
 * (`tsx scripts/profile-engine-idle.ts [--channels 10000] [--seconds 25] [--dir .cache/bench-prof]`):
 * what the tick, planning and VOD changes cost, without serving in the way. Open the .cpuprofile in
 * Chrome DevTools. Prints the engine's CPU per second over the window.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleAll } from './bench/bundle';
import { forkTs } from './bench/ipc';
import { sampleCpu } from './bench/pin';
import { containerNodeFlags } from './bench/v8/container-flags';

const { values: opts } = parseArgs({
  options: {
    channels: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '25' },
    dir: { type: 'string', default: fileURLToPath(new URL('../.cache/bench-prof', import.meta.url)) },
  },
});
const [bundle] = await bundleAll([fileURLToPath(new URL('./bench/engine-process.ts', import.meta.url))]);
const engine = await forkTs<{ port: number }>(bundle!.file, [], {
  nodeFlags: [
    '--expose-gc',
    ...containerNodeFlags(),
    '--cpu-prof',
    `--cpu-prof-dir=${opts.dir}`,
    ...(process.env.TRACE_GC ? ['--trace-gc'] : []),
    ...(process.env.HEAP_PROF
      ? ['--heap-prof', `--heap-prof-dir=${opts.dir}`, '--heap-prof-interval=65536']
      : []),
  ],
  env: {
    LOG_LEVEL: 'warn',
    BENCH_STATIC_DIR: fileURLToPath(new URL('../engine-container/static', import.meta.url)),
  },
});
const { ms } = await engine.call<{ ms: number }>('addChannels', { count: Number(opts.channels) });
const cpu = await sampleCpu(engine.pid, Number(opts.seconds));
console.log(
  `${opts.channels} channels ready in ${(ms / 1000).toFixed(2)} s; idle CPU ${cpu.avgPct.toFixed(2)} % ` +
    `(per second: ${cpu.perSecondPct.map((x) => x.toFixed(0)).join(' ')}); profile in ${opts.dir}`,
);
await engine.call('stop').catch(() => undefined);
await engine.kill(10_000);
