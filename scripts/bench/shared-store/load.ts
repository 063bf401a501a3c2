/**
 * The load generator, run in its own process (forked by bench-engine.ts) so it never shares an event
 * loop with the server it measures. A fixed number of keep-alive connections each send one request at a
 * time, round-robin over the given paths; every latency is taken with process.hrtime from just before
 * the request to the end of its body. Requests completing in the warm-up are not counted.
 */
import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { announceReady, serveRequests } from '../ipc';
import { type LatencySummary, summarize } from './latency-stats';

export interface LoadPlan {
  port: number;
  paths: string[];
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** Width of the per-interval breakdown. */
  bucketMs: number;
}

export interface LoadBucket {
  /** Unix ms (same clock as the server's event times). */
  startMs: number;
  requests: number;
  latency: LatencySummary;
}

export interface LoadResult {
  /** Unix ms when the measured interval began (after the warm-up). */
  startedAtMs: number;
  durationMs: number;
  requests: number;
  /** Network errors plus non-200 answers. */
  errors: number;
  statuses: Record<string, number>;
  bytesPerResponse: number;
  rps: number;
  latency: LatencySummary;
  buckets: LoadBucket[];
  /** This generator's own CPU over the whole run, % of one core (near 100: the generator is the limit). */
  clientCpuPct: number;
}

const unixMs = (perfMs: number) => performance.timeOrigin + perfMs;

function fetchOnce(agent: Agent, port: number, path: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', () => resolve({ status: 0, bytes }));
    });
    req.on('error', () => resolve({ status: 0, bytes: 0 }));
  });
}

export async function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: plan.connections });
  const cpuAtStart = process.cpuUsage();
  const startedPerf = performance.now();
  const startAt = performance.now() + plan.warmupMs;
  const stopAt = startAt + plan.durationMs;
  const latencies: number[] = [];
  const buckets: number[][] = [];
  const statuses: Record<string, number> = {};
  let bytes = 0;
  let next = 0;

  const connection = async () => {
    while (performance.now() < stopAt) {
      const path = plan.paths[next++ % plan.paths.length]!;
      const t0 = process.hrtime.bigint();
      const { status, bytes: size } = await fetchOnce(agent, plan.port, path);
      const latencyMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const at = performance.now();
      if (at >= startAt && at < stopAt) {
        latencies.push(latencyMs);
        const b = Math.floor((at - startAt) / plan.bucketMs);
        buckets[b] ??= [];
        buckets[b].push(latencyMs);
        statuses[status] = (statuses[status] ?? 0) + 1;
        bytes += size;
      }
      // A refused connection answers at once: do not spin on it.
      if (status === 0) await new Promise((r) => setTimeout(r, 10));
    }
  };
  await Promise.all(Array.from({ length: plan.connections }, connection));
  agent.destroy();
  const cpu = process.cpuUsage(cpuAtStart);
  const clientCpuPct = ((cpu.user + cpu.system) / 1000 / (performance.now() - startedPerf)) * 100;

  const requests = latencies.length;
  return {
    startedAtMs: unixMs(startAt),
    durationMs: plan.durationMs,
    requests,
    errors: requests - (statuses['200'] ?? 0),
    statuses,
    bytesPerResponse: requests ? bytes / requests : 0,
    rps: requests / (plan.durationMs / 1000),
    latency: summarize(latencies),
    buckets: Array.from({ length: Math.ceil(plan.durationMs / plan.bucketMs) }, (_, b) => ({
      startMs: unixMs(startAt + b * plan.bucketMs),
      requests: buckets[b]?.length ?? 0,
      latency: summarize(buckets[b] ?? []),
    })),
    clientCpuPct,
  };
}

if (process.send) {
  serveRequests({ run: (plan: LoadPlan) => runLoad(plan) });
  announceReady({});
}
