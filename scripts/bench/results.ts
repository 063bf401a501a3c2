/** The benchmark's results (also its JSON file) and the figures derived from raw measurements. */
import type { CaptureSummary } from './ceiling/ceiling-process';
import type { ColdReads } from './cold-reads';
import type { DriftResult } from './drift-sim';
import type { EdgeSample } from './engine-process';
import type { CpuSeconds } from './pin';
import type { MemorySnapshot } from './process-meter';
import type { WrkResult } from './wrk';

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

/** One wrk run against a server, with the server's CPU over it (from /proc, % of one core). */
export type LoadRun = WrkResult & { serverCpuPct: number };

export interface ChannelsRun {
  channels: number;
  /** Creating the channels at once until every one has its log and has rendered its first playlist. */
  startupMs: number;
  /** The engine's answer to every request path, captured once for the ceiling to replay. */
  captured: CaptureSummary;
  /** The raw node:http ceiling replaying those answers, measured twice after the engine; rps is the mean. */
  ceiling: { rps: number; first: LoadRun; second: LoadRun };
  engine: LoadRun;
  /**
   * After forced GC: no channel, one channel, N channels 1 s after they were created (`steady`, still
   * planning their first batches: their logs are short of their idle size), N channels at the end of
   * the idle window (`idle`: what "idle" means in the targets), and after the load.
   */
  memory: {
    empty: MemorySnapshot;
    one: MemorySnapshot;
    steady: MemorySnapshot;
    idle: MemorySnapshot;
    afterLoad: MemorySnapshot;
  };
  /** Marginal memory of a channel when idle: (N channels - 1 channel) / (N - 1); NaN for N = 1. */
  perChannel: { rssMB: number; heapMB: number };
  perChannelAfterLoad: { rssMB: number; heapMB: number };
  /** Average log items per channel when memory was measured. */
  tailItems: { steady: number; idle: number; afterLoad: number };
  /**
   * The engine's CPU per second from the capture until every channel had planned past its start-up
   * (`replanned` of them did), and the seconds a mark-compact's CPU may fall in: channels created at
   * once plan their first batches together.
   */
  firstPlanning?: CpuSeconds & { replanned: number; markCompactSeconds?: number[] };
  /**
   * The engine's CPU with no requests, per second over one planning cycle after the first planning, its
   * collections per kind, and the seconds a mark-compact's CPU may fall in (`markCompactSeconds`,
   * v8/gc-trace.ts; results from before collections were traced have neither).
   */
  idle: CpuSeconds & {
    appended: number;
    started: number;
    collections?: Record<string, number>;
    markCompactSeconds?: number[];
  };
  realTime: RealTimeFigures;
  problems: { vodErrors: number; slates: number };
}

export interface BenchResults {
  startedAt: string;
  machine: { cpus: number; loadAverageBefore: string; loadAverageAfter: string; node: string };
  options: {
    channels: number[];
    seconds: number;
    idleSeconds: number;
    connections: number;
    simHours: number;
    engineCores: string;
    loadCores: string;
    /** Extra node flags the engine ran with ('' = as the container runs it). */
    engineNodeFlags: string;
  };
  engineBundleBytes: number;
  /** The host's cold reads before the engines started (none with --host-seconds 0, or before 2026-11-29). */
  host?: ColdReads;
  runs: ChannelsRun[];
  drift: Omit<DriftResult, 'samplePlaylist'>;
}

const MB = 1024 * 1024;

export function perChannelMemory(one: MemorySnapshot, many: MemorySnapshot, channels: number) {
  const extra = channels - 1;
  if (extra < 1) return { rssMB: Number.NaN, heapMB: Number.NaN };
  return {
    rssMB: (many.rssBytes - one.rssBytes) / MB / extra,
    heapMB: (many.heapUsedBytes - one.heapUsedBytes) / MB / extra,
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
