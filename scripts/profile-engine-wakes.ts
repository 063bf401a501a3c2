/**
 * The CPU of the engine's tick on a fake clock (`tsx scripts/profile-engine-wakes.ts [--channels 10000]
 * [--seconds 120]`): N Loop channels of one VOD created at once (so they change VOD in the same second
 * for ever), driven the way the Engine's tick drives them (never faster than its floor, MIN_TICK_MS),
 * and the main thread's CPU summed per simulated second. No I/O, timers, GC helper threads or requests:
 * what the planning and the announcements themselves cost, and how they are spread. Run it with `node
 * --cpu-prof --import tsx` for a profile.
 */
import { parseArgs } from 'node:util';
import { loopChannels, tick } from './bench/fake-clock/loop-channels';

const { values: opts } = parseArgs({
  options: {
    channels: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '120' },
  },
});
const N = Number(opts.channels);
const SECONDS = Number(opts.seconds);
const cpuUs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return u.user + u.system;
};

const engine = loopChannels(N);
const { core, clock } = engine;
let t = process.cpuUsage();
await core.advanceAll();
console.log(`${N} channels created: ${(cpuUs(t) / N).toFixed(0)} µs of CPU per channel`);

let appended = 0;
let started = 0;
core.events.subscribe((e) => {
  if (e.type === 'item_appended') appended++;
  if (e.type === 'item_started') started++;
});
const t0 = clock.now;
const perSecond = new Map<number, number>();
for (;;) {
  t = process.cpuUsage();
  if (!(await tick(engine, t0 + SECONDS * 1000 - 1))) break;
  const second = Math.floor((clock.now - t0) / 1000);
  perSecond.set(second, (perSecond.get(second) ?? 0) + cpuUs(t));
}
const pct = (us: number) => us / 1e4;
const total = [...perSecond.values()].reduce((a, b) => a + b, 0);
const series = Array.from({ length: SECONDS }, (_, s) => pct(perSecond.get(s) ?? 0).toFixed(0));
console.log(
  `over ${SECONDS} simulated s: ${appended} appends, ${started} starts; main-thread CPU ` +
    `${pct(total / SECONDS).toFixed(2)} % of a core on average, worst second ` +
    `${pct(Math.max(...perSecond.values())).toFixed(1)} %\nper second: ${series.join(' ')}`,
);
