/** The benchmark's results (also its JSON file) and the figures derived from raw measurements. */
import type { DriftResult } from './drift-sim';
import type { ActivityBucket, EdgeSample } from './engine-process';
import type { LoadResult } from './load';
import type { CpuWindow, MemorySnapshot } from './process-meter';

export type LoadRun = LoadResult & { serverCpu: CpuWindow };

export interface IntervalFigures {
  startMs: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  appended: number;
  started: number;
}

export interface VodChangeFigures {
  /** Intervals in which channels appended their next item or started playing it. */
  withChange: { intervals: number; worstP99Ms: number; maxMs: number };
  withoutChange: { intervals: number; worstP99Ms: number; maxMs: number };
}

export interface RealTimeFigures {
  wallMs: number;
  /** Per channel: segments the live edge advanced minus wall time in segments (|x| < 1 is real time). */
  minSegmentsAheadOfClock: number;
  maxSegmentsAheadOfClock: number;
  /** Clock minus live edge at the end, over all channels (within [0, one segment) is real time). */
  minLagMs: number;
  maxLagMs: number;
  segmentMs: number;
}

export interface ChannelsRun {
  channels: number;
  /** Adding the channels until each has its log and a rendered playlist. */
  startupMs: number;
  /** Measured before and after the engine; rps is their mean. */
  ceiling: { rps: number; before: LoadRun; after: LoadRun };
  engine: LoadRun;
  /** After forced GC: no channel, one channel, N channels at steady state, N channels after the load. */
  memory: { empty: MemorySnapshot; one: MemorySnapshot; steady: MemorySnapshot; afterLoad: MemorySnapshot };
  /** Marginal memory of a channel: (N channels - 1 channel) / (N - 1); NaN for N = 1. */
  perChannel: { rssMB: number; heapMB: number };
  /**
   * The same after the load: channels hold more log items by then, and rendered playlists; RSS also
   * holds what serving costs whatever the channel count (sockets, a grown young generation).
   */
  perChannelAfterLoad: { rssMB: number; heapMB: number };
  /** Average log items per channel when memory was measured (steady size: ~14 with the 12 s demo). */
  tailItems: { steady: number; afterLoad: number };
  idle: CpuWindow & { appended: number; started: number };
  intervals: IntervalFigures[];
  vodChange: VodChangeFigures;
  realTime: RealTimeFigures;
  problems: { vodErrors: number; slates: number };
}

export interface BenchResults {
  startedAt: string;
  machine: { cpus: number; loadAverage: number[]; node: string };
  options: {
    channels: number[];
    seconds: number;
    idleSeconds: number;
    connections: number;
    simHours: number;
  };
  ceilingBodyBytes: number;
  runs: ChannelsRun[];
  drift: Omit<DriftResult, 'samplePlaylist'>;
}

const MB = 1024 * 1024;

export function perChannelMemory(one: MemorySnapshot, steady: MemorySnapshot, channels: number) {
  const extra = channels - 1;
  if (extra < 1) return { rssMB: Number.NaN, heapMB: Number.NaN };
  return {
    rssMB: (steady.rssBytes - one.rssBytes) / MB / extra,
    heapMB: (steady.heapUsedBytes - one.heapUsedBytes) / MB / extra,
  };
}

export function intervalFigures(load: LoadResult, activity: readonly ActivityBucket[]): IntervalFigures[] {
  const bucketS = load.durationMs / 1000 / Math.max(1, load.buckets.length);
  return load.buckets.map((b, i) => ({
    startMs: b.startMs,
    rps: b.requests / bucketS,
    p50Ms: b.latency.p50Ms,
    p99Ms: b.latency.p99Ms,
    maxMs: b.latency.maxMs,
    appended: activity[i]?.appended ?? 0,
    started: activity[i]?.started ?? 0,
  }));
}

export function vodChangeFigures(intervals: readonly IntervalFigures[]): VodChangeFigures {
  const worst = (xs: number[]) => (xs.length ? Math.max(...xs) : Number.NaN);
  const group = (xs: IntervalFigures[]) => ({
    intervals: xs.length,
    worstP99Ms: worst(xs.map((x) => x.p99Ms)),
    maxMs: worst(xs.map((x) => x.maxMs)),
  });
  const changed = (x: IntervalFigures) => x.appended + x.started > 0;
  return {
    withChange: group(intervals.filter(changed)),
    withoutChange: group(intervals.filter((x) => !changed(x))),
  };
}

export function realTimeFigures(before: EdgeSample, after: EdgeSample): RealTimeFigures {
  const ahead: number[] = [];
  const lags: number[] = [];
  let segmentMs = 0;
  let wallMs = 0;
  after.edges.forEach((edge, n) => {
    const was = before.edges[n];
    if (!was) return;
    segmentMs = Math.max(segmentMs, edge.segmentMs);
    wallMs = Math.max(wallMs, edge.atMs - was.atMs);
    ahead.push(edge.lastIndex - was.lastIndex - (edge.atMs - was.atMs) / edge.segmentMs);
    lags.push(edge.atMs - edge.endMs);
  });
  return {
    wallMs,
    minSegmentsAheadOfClock: Math.min(...ahead),
    maxSegmentsAheadOfClock: Math.max(...ahead),
    minLagMs: Math.min(...lags),
    maxLagMs: Math.max(...lags),
    segmentMs,
  };
}
