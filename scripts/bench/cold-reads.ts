/**
 * How dear this machine makes a read of memory untouched for a while: the host's share of an idle
 * engine's CPU (docs/benchmarks.md, seventeenth pass). An idle engine wakes each channel every 12–40 s
 * and first reads objects it has not touched since its last wake; on a shared host that read has cost
 * 36–72 times a warm one, and the engine's idle CPU moved with it.
 *
 * `groups` groups of 200 small objects (a group about the 15 KB a channel keeps live, allocated
 * together) are walked a few at a time, ten times a second, so each is walked once every `everyS`
 * seconds: that walk's time is the cold read. The same few groups walked again at once are the warm
 * read. The first cycle is not timed (the groups were just allocated, not cold); then `seconds` are.
 */
import { percentile, summarize } from './shared-store/latency-stats';

export interface ColdReadOptions {
  groups: number;
  everyS: number;
  seconds: number;
}

/** A walk's time over the walks timed, in µs. */
export interface WalkSpread {
  p50Us: number;
  meanUs: number;
  p90Us: number;
  maxUs: number;
}

export interface ColdReads {
  groups: number;
  /** How long each group was left untouched between its walks. */
  everyS: number;
  walks: number;
  cold: WalkSpread;
  warm: WalkSpread;
  /** Cold mean over warm mean: what a process pays for the host's memory, most walks cheap, a tenth dear. */
  ratio: number;
}

const TICK_MS = 100;
const OBJECTS = 200;

interface Small {
  n: number;
  name: string;
  list: number[];
}

/** Reads each object's fields and writes one (as a wake reads a channel's state and updates it). */
const walk = (group: Small[]): number => {
  const from = performance.now();
  for (const o of group) o.n = o.list[0]! + o.name.length;
  return performance.now() - from;
};

const stats = (ms: number[]): WalkSpread => {
  const { p50Ms, meanMs, maxMs } = summarize(ms);
  const p90Ms = percentile(Float64Array.from(ms).sort(), 0.9);
  return { p50Us: p50Ms * 1000, meanUs: meanMs * 1000, p90Us: p90Ms * 1000, maxUs: maxMs * 1000 };
};

export async function measureColdReads(options: ColdReadOptions): Promise<ColdReads> {
  const perTick = Math.max(1, Math.round((options.groups * TICK_MS) / (options.everyS * 1000)));
  const groups: Small[][] = [];
  for (let g = 0; g < options.groups; g++)
    groups.push(Array.from({ length: OBJECTS }, (_, i) => ({ n: i, name: `k${i}`, list: [i] })));
  const cold: number[] = [];
  const warm: number[] = [];
  const cycleTicks = Math.ceil(options.groups / perTick);
  const timedTicks = (options.seconds * 1000) / TICK_MS;
  let next = 0;
  for (let t = 0; t < cycleTicks + timedTicks; t++) {
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    const batch = Array.from({ length: perTick }, () => groups[next++ % options.groups]!);
    const coldMs = batch.map(walk);
    const warmMs = batch.map(walk);
    if (t >= cycleTicks) {
      cold.push(...coldMs);
      warm.push(...warmMs);
    }
  }
  const coldStats = stats(cold);
  const warmStats = stats(warm);
  return {
    groups: options.groups,
    everyS: (cycleTicks * TICK_MS) / 1000,
    walks: cold.length,
    cold: coldStats,
    warm: warmStats,
    ratio: coldStats.meanUs / warmStats.meanUs,
  };
}

const us = (n: number) => n.toFixed(1);

/** One line: the cold read's mean against the warm one's, with the cold read's spread. */
export function describeColdReads(r: ColdReads): string {
  return (
    `a read of memory untouched for ${r.everyS.toFixed(0)} s cost ${r.ratio.toFixed(1)}x a warm one ` +
    `(means ${us(r.cold.meanUs)} / ${us(r.warm.meanUs)} µs a group of 200 objects; cold median ` +
    `${us(r.cold.p50Us)}, p90 ${us(r.cold.p90Us)}, max ${us(r.cold.maxUs)} µs; ${r.walks} walks)`
  );
}
