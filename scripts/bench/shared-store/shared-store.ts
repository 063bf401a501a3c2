/**
 * The benchmark's shared-store mode (`npm run bench:engine -- --store redis,dynamodb`): the engine
 * process of engine-process.ts, its log in a real Redis (redis-server on a free loopback port) or
 * DynamoDB Local, every store request counted (counting-store.ts). Per store and channel count: store
 * requests per channel per second with no player (the log's own upkeep: appends, leases, refreshes)
 * and under load (requests also refresh stale tails), and request latency p50/p99 under load.
 */
import { localName, tables } from '../../../core/resources';
import { startLocalCloud } from '../../../local/cloud';
import { startRedisServer } from '../../../test/engine-ha/support/redis-server';
import { mediaPlaylistPath } from '../channel-paths';
import type { StoreOps } from '../counting-store';
import type { EngineProcessInfo } from '../engine-process';
import { forkTs } from '../ipc';
import type { LoadPlan, LoadResult } from './load';

export type StoreKind = 'redis' | 'dynamodb';

export interface SharedStorePlan {
  stores: StoreKind[];
  channels: number[];
  /** Seconds of upkeep measured with no request (covers item changes: the demo VOD is 12 s). */
  idleSeconds: number;
  loadSeconds: number;
  connections: number;
  engineProcess: string;
  loadProcess: string;
  progress(msg: string): void;
}

export interface SharedStoreRun {
  store: StoreKind;
  channels: number;
  startupMs: number;
  idle: { seconds: number; ops: StoreOps };
  load: { seconds: number; ops: StoreOps; result: LoadResult };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const diff = (a: StoreOps, b: StoreOps): StoreOps =>
  Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v - (a[k as keyof StoreOps] ?? 0)])) as StoreOps;

/** A store server for the run, and the engine process's environment to reach it. */
async function startStore(kind: StoreKind): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  if (kind === 'redis') {
    const redis = await startRedisServer();
    return { env: { BENCH_STORE_URL: redis.url }, stop: redis.stop };
  }
  const cloud = await startLocalCloud();
  const url = `dynamodb://${localName(tables.playoutLog.id)}`;
  return { env: { ...cloud.env, BENCH_STORE_URL: url }, stop: cloud.stop };
}

async function measure(
  plan: SharedStorePlan,
  kind: StoreKind,
  channels: number,
  env: Record<string, string>,
) {
  const engine = await forkTs<EngineProcessInfo>(plan.engineProcess, [], {
    env: { ...env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
  try {
    plan.progress(`${kind}, ${channels} channels: starting them`);
    const added = await engine.call<{ ms: number }>('addChannels', { count: channels });
    await sleep(1000);
    plan.progress(`${kind}, ${channels} channels: upkeep with no request`);
    const idleFrom = await engine.call<StoreOps>('storeOps');
    const idleStart = Date.now();
    await sleep(plan.idleSeconds * 1000);
    const idleTo = await engine.call<StoreOps>('storeOps');
    const idleSeconds = (Date.now() - idleStart) / 1000;

    plan.progress(`${kind}, ${channels} channels: load`);
    const loader = await forkTs<unknown>(plan.loadProcess, []);
    const loadStart = Date.now();
    const loadPlan: LoadPlan = {
      port: engine.info.port,
      paths: Array.from({ length: channels }, (_, n) => mediaPlaylistPath(n)),
      connections: plan.connections,
      warmupMs: 2000,
      durationMs: plan.loadSeconds * 1000,
      bucketMs: 1000,
    };
    const result = await loader.call<LoadResult>('run', loadPlan).finally(() => loader.kill());
    const loadTo = await engine.call<StoreOps>('storeOps');
    return {
      store: kind,
      channels,
      startupMs: added.ms,
      idle: { seconds: idleSeconds, ops: diff(idleFrom, idleTo) },
      load: { seconds: (Date.now() - loadStart) / 1000, ops: diff(idleTo, loadTo), result },
    } satisfies SharedStoreRun;
  } finally {
    await engine.call('stop').catch(() => undefined);
    await engine.kill(10_000);
  }
}

export async function runSharedStoreBench(plan: SharedStorePlan): Promise<SharedStoreRun[]> {
  const runs: SharedStoreRun[] = [];
  for (const kind of plan.stores) {
    for (const n of plan.channels) {
      // A fresh store per run: logs left by the previous run name VODs on its (gone) origin's port.
      plan.progress(`${kind}: starting the store`);
      const store = await startStore(kind);
      try {
        runs.push(await measure(plan, kind, n, store.env));
      } finally {
        await store.stop();
      }
    }
  }
  return runs;
}

const reads = (o: StoreOps) => o.read;
/** Writes as the store bills them: appends (won or refused) and every lease request; Redis trims too. */
const writes = (o: StoreOps, kind: StoreKind) =>
  o.append +
  o.conflict +
  o.acquire +
  o.acquireRefused +
  o.renew +
  o.release +
  (kind === 'redis' ? o.trim : 0);

export function formatSharedStoreReport(runs: SharedStoreRun[]): string {
  const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const header = [
    'store',
    'channels',
    'p50 ms',
    'p99 ms',
    'req/s',
    'idle reads/s/ch',
    'idle writes/s/ch',
    'load reads/s/ch',
    'load writes/s/ch',
    'reads/ch/h idle',
    'writes/ch/h idle',
  ];
  const rows = runs.map((r) => {
    const perIdle = (x: number) => x / r.channels / r.idle.seconds;
    const perLoad = (x: number) => x / r.channels / r.load.seconds;
    return [
      r.store,
      String(r.channels),
      f(r.load.result.latency.p50Ms),
      f(r.load.result.latency.p99Ms),
      f(r.load.result.rps, 0),
      f(perIdle(reads(r.idle.ops)), 3),
      f(perIdle(writes(r.idle.ops, r.store)), 3),
      f(perLoad(reads(r.load.ops)), 3),
      f(perLoad(writes(r.load.ops, r.store)), 3),
      f(perIdle(reads(r.idle.ops)) * 3600, 0),
      f(perIdle(writes(r.idle.ops, r.store)) * 3600, 0),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [
    'Shared store: one engine process, Loop channels of the 12 s demo VOD; store requests counted',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ].join('\n');
}
