/**
 * How dear this machine makes a read of memory untouched for a while (`npm run bench:cold-reads`, or
 * `tsx scripts/bench-cold-reads.ts [--groups 10000] [--every-s 40] [--seconds 20]`): the host's share
 * of an idle engine's CPU. An idle engine wakes each channel every 12–40 s and first reads objects it
 * has not touched since its last wake; on a shared host that read may cost many times a warm one, and
 * the engine's idle CPU moved with it (docs/benchmarks.md, seventeenth pass). Run it beside
 * bench:engine's figures to tell the engine's change from the host's.
 *
 * --groups groups of 200 small objects (a group about the 15 KB a channel keeps live, allocated
 * together) are walked a few at a time, ten times a second, so each is walked once every --every-s
 * seconds: that walk's time is the cold read. The same few groups walked again at once are the warm
 * read. The first cycle is not timed (the groups were just allocated, not cold); then --seconds are.
 */
import { parseArgs } from 'node:util';
import { machineLoad } from './bench/pin';
import { percentile, summarize } from './bench/shared-store/latency-stats';

const { values: opts } = parseArgs({
  options: {
    groups: { type: 'string', default: '10000' },
    'every-s': { type: 'string', default: '40' },
    seconds: { type: 'string', default: '20' },
  },
});
const GROUPS = Number(opts.groups);
const TICK_MS = 100;
const perTick = Math.max(1, Math.round((GROUPS * TICK_MS) / (Number(opts['every-s']) * 1000)));
const OBJECTS = 200;

interface Small {
  n: number;
  name: string;
  list: number[];
}
const groups: Small[][] = [];
for (let g = 0; g < GROUPS; g++)
  groups.push(Array.from({ length: OBJECTS }, (_, i) => ({ n: i, name: `k${i}`, list: [i] })));

/** Reads each object's fields and writes one (as a wake reads a channel's state and updates it). */
const walk = (group: Small[]): number => {
  const from = performance.now();
  for (const o of group) o.n = o.list[0]! + o.name.length;
  return performance.now() - from;
};

const cold: number[] = [];
const warm: number[] = [];
const cycleTicks = Math.ceil(GROUPS / perTick);
const timedTicks = (Number(opts.seconds) * 1000) / TICK_MS;
console.log(
  `load average ${machineLoad()}; ${GROUPS} groups of ${OBJECTS} objects, each walked every ${((cycleTicks * TICK_MS) / 1000).toFixed(0)} s; one cycle untimed, then ${opts.seconds} s timed`,
);
let next = 0;
for (let t = 0; t < cycleTicks + timedTicks; t++) {
  await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  const batch = Array.from({ length: perTick }, () => groups[next++ % GROUPS]!);
  const coldMs = batch.map(walk);
  const warmMs = batch.map(walk);
  if (t >= cycleTicks) {
    cold.push(...coldMs);
    warm.push(...warmMs);
  }
}
const us = (ms: number) => (ms * 1000).toFixed(1);
const line = (name: string, xs: number[]) => {
  const { p50Ms, meanMs, maxMs } = summarize(xs);
  const p90 = percentile(Float64Array.from(xs).sort(), 0.9);
  return `${name}: median ${us(p50Ms)} µs a group, mean ${us(meanMs)}, p90 ${us(p90)}, max ${us(maxMs)}`;
};
console.log(line('cold read', cold));
console.log(line('warm read', warm));
// The mean is what a process pays: most walks cost little, and a tenth of them hundreds of µs.
console.log(
  `cold / warm (means): ${(summarize(cold).meanMs / summarize(warm).meanMs).toFixed(1)}x over ${cold.length} walks; load average ${machineLoad()}`,
);
