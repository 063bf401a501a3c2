/**
 * Polling benchmark (`npm run bench:polling`, or `tsx scripts/bench-polling.ts [--sizes 10,1000,10000]
 * [--seconds 30] [--warmup-max 300] [--settle 30]`): what one engine task sends per minute to DynamoDB and to the
 * schedule API, at each size idle and with one change per second.
 *
 * The real engine host (engine-container/host/main.ts, a child process: one task) runs against the
 * local cloud's DynamoDB Local and the schedule handler behind the API Gateway stand-in
 * (local/gateway.ts), each reached through a counting proxy (test/support/counting-proxy.ts), so the
 * requests are counted where they arrive, by DynamoDB operation and by API route. The schedule
 * service's own DynamoDB calls (what it reads to answer the engine) go through a third proxy.
 *
 * A size is `n` channels: n/2 Loop channels of the channel API and n/2 empty schedule channels (they
 * play the slate), seeded through the stores. The playout log is the engine's memory store: per-item
 * log writes are playout, not polling, and are left out. Each case is measured for --seconds of real
 * time after the engine has read every schedule channel's schedule once and then no schedule for 10 s
 * (at most --settle seconds: an engine starting thousands of channels on a busy machine retries the
 * first reads that failed for a while; the old per-channel polling never falls quiet), and written
 * every channel's first status (no status write for 5 s, within --warmup-max), and scaled to a minute
 * (x 60 / seconds). The change case makes one change a second, alternating a LIVE entry POSTed to the
 * schedule API (a day ahead, so nothing switches) and a live event added to a channel-API channel.
 * Every loop is bounded by a count or a deadline. Prints one table, with the engine process's CPU over
 * each case (from /proc: its playout included, so an idle case is what the deployed engine idles at);
 * the load average says how busy the machine was (a saturated machine caps the old code's per-channel polls below their design rate).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { documentClient } from '../core/aws';
import { mapLimit } from '../core/map-limit';
import { tableName, tables } from '../core/resources';
import { channelId } from '../functions/channel/channel-id';
import { dynamoChannelStore } from '../functions/channel/stores/channel-store';
import { dynamoScheduleStores } from '../functions/schedule/deps';
import { startLocalCloud } from '../local/cloud';
import { startGateway } from '../local/gateway';
import { http } from '../test/schedule/support/http';
import { dynamoKey, routeKey, startCountingProxy } from '../test/support/counting-proxy';
import { startStaticServer } from '../test/support/static-server';
import { cpuSeconds, machineLoad } from './bench/pin';

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10,1000,10000' },
    seconds: { type: 'string', default: '30' },
    'warmup-max': { type: 'string', default: '300' },
    settle: { type: 'string', default: '120' },
  },
});
const SIZES = opts.sizes.split(',').map(Number);
const SECONDS = Number(opts.seconds);
const WARMUP_MAX_S = Number(opts['warmup-max']);
const SETTLE_S = Number(opts.settle);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCHEDULE_TENANT = 'bench.example';
/** Channel-API channels per tenant: creates of one tenant contend on its counter. */
const PER_TENANT = 100;

const progress = (msg: string) => process.stderr.write(`[bench:polling] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Until `count` has not moved for quietMs, or the clock reaches byMs (checked once a second). */
async function untilQuiet(count: () => number, quietMs: number, byMs: number): Promise<void> {
  let last = { n: count(), at: Date.now() };
  while (Date.now() < byMs && Date.now() - last.at < quietMs) {
    await sleep(1000);
    if (count() !== last.n) last = { n: count(), at: Date.now() };
  }
}

interface Row {
  channels: number;
  mode: 'idle' | '1 change/s';
  engineDynamo: Map<string, number>;
  engineApi: Map<string, number>;
  serviceDynamo: Map<string, number>;
  /** The engine process's CPU over the case, % of one core. */
  engineCpuPct: number;
}

/** Operation only (DynamoDB keys are `Op table`), summed. */
const byOperation = (counts: Map<string, number>) => {
  const out = new Map<string, number>();
  for (const [key, n] of counts) {
    const op = key.split(' ')[0]!;
    out.set(op, (out.get(op) ?? 0) + n);
  }
  return out;
};
const perMinute = (counts: Map<string, number>) =>
  new Map([...counts].map(([k, n]) => [k, Math.round((n * 60) / SECONDS)] as const));
const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
const show = (counts: Map<string, number>) =>
  [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || '0';

async function main(): Promise<void> {
  const cloud = await startLocalCloud();
  Object.assign(process.env, cloud.env, { LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' });
  const engineDynamo = await startCountingProxy(cloud.endpoints.dynamodb, dynamoKey);
  const serviceDynamo = await startCountingProxy(cloud.endpoints.dynamodb, dynamoKey);
  // This process (the schedule handler, the seeding, the changes) reaches DynamoDB through its own proxy.
  process.env.AWS_ENDPOINT_URL_DYNAMODB = serviceDynamo.url;
  const { handler } = await import('../functions/schedule/handler');
  const gateway = await startGateway('schedule', handler, 0);
  // Which channels' schedules were read: the warm-up waits until each was read once.
  const scheduleRead = new Set<string>();
  const route = routeKey(/(\/channels\/)[^/]+/);
  const api = await startCountingProxy(gateway.url, (req, body) => {
    const id = /\/channels\/([^/?]+)\/schedule/.exec(req.url ?? '')?.[1];
    if (id) scheduleRead.add(id);
    return route(req, body);
  });
  const origin = await startStaticServer(`${ROOT}engine-container/static`);
  const channelStore = dynamoChannelStore(documentClient(), tableName(tables.channels));
  const scheduleStores = dynamoScheduleStores();
  const rows: Row[] = [];
  let seeded = 0;
  try {
    for (const size of SIZES) {
      const half = Math.max(1, Math.floor(size / 2));
      progress(`seeding to ${half} + ${half} channels`);
      const todo = Array.from({ length: Math.max(0, half - seeded) }, (_, i) => seeded + i);
      await mapLimit(todo, 16, async (i) => {
        const tenant = `bench-${Math.floor(i / PER_TENANT)}`;
        const name = `b-${i}`;
        const created = await channelStore.create(
          {
            id: channelId(tenant, name),
            tenant,
            name,
            type: 'Loop',
            url: `${origin.url}/demo/master.m3u8`,
            createdAt: Date.now(),
          },
          PER_TENANT,
        );
        if (!created.ok) throw new Error(`channel ${name} not created: ${created.reason}`);
        await scheduleStores.channels.create({ id: name, tenant: SCHEDULE_TENANT, title: name }, Date.now());
      });
      seeded = Math.max(seeded, half);
      rows.push(...(await measureSize(size, half)));
    }
  } finally {
    await api.close();
    await gateway.close();
    await origin.close();
    await engineDynamo.close();
    await serviceDynamo.close();
    await cloud.stop();
  }
  printTable(rows);

  async function measureSize(size: number, half: number): Promise<Row[]> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'engine-container/host/main.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        AWS_ENDPOINT_URL_DYNAMODB: engineDynamo.url,
        SCHEDULE_SERVICE_API_URL: `${api.url}/api/v1`,
        // The service runs without tokens (local mode): any token passes.
        SCHEDULE_SERVICE_TOKEN: 'local',
        ENGINE_PORT: '0',
        ENGINE_LOG_STORE: 'memory',
        ENGINE_SLATE_URI: `${origin.url}/slate/master.m3u8`,
        ALLOW_PRIVATE_URLS: 'true',
      },
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      // Warm: every schedule channel's schedule read once (its first item), then SETTLE_S to settle.
      for (const p of [engineDynamo, serviceDynamo, api]) p.reset();
      scheduleRead.clear();
      const started = Date.now();
      const deadline = started + WARMUP_MAX_S * 1000;
      while (scheduleRead.size < half && Date.now() < deadline && child.exitCode === null) await sleep(500);
      if (child.exitCode !== null) throw new Error(`engine exited with ${child.exitCode}`);
      // Then settled: no schedule read for 10 s (first reads that failed on a busy machine are retried
      // for a while), or SETTLE_S, whichever comes first: per-channel polling never falls quiet.
      const reads = () => api.counts().get('GET /api/v1/channels/{id}/schedule') ?? 0;
      await untilQuiet(reads, 10_000, Date.now() + SETTLE_S * 1000);
      progress(
        `${size} channels: ${scheduleRead.size} schedules read in ${Math.round((Date.now() - started) / 1000)} s with warm-up (${reads()} reads)`,
      );
      // Then every channel's first status written: the status tracker writes at most 50 a second, so
      // 10,000 channels' first statuses take 200 s; an idle task writes a status only when one changes.
      const statusWrites = () => byOperation(engineDynamo.counts()).get('UpdateItem') ?? 0;
      await untilQuiet(statusWrites, 5000, started + WARMUP_MAX_S * 1000);
      progress(
        `${size} channels: first statuses written after ${Math.round((Date.now() - started) / 1000)} s`,
      );
      const measure = async (mode: Row['mode'], change?: (i: number) => Promise<void>): Promise<Row> => {
        for (const p of [engineDynamo, serviceDynamo, api]) p.reset();
        const cpuBefore = { s: cpuSeconds(child.pid!), at: performance.now() };
        const end = Date.now() + SECONDS * 1000;
        for (let i = 0; Date.now() < end && i < SECONDS + 5; i++) {
          await change?.(i);
          await sleep(Math.max(0, Math.min(1000, end - Date.now())));
        }
        const engineCpuPct =
          ((cpuSeconds(child.pid!) - cpuBefore.s) / ((performance.now() - cpuBefore.at) / 1000)) * 100;
        progress(`${size} channels, ${mode}: measured`);
        return {
          engineCpuPct,
          channels: size,
          mode,
          engineDynamo: perMinute(byOperation(engineDynamo.counts())),
          engineApi: perMinute(api.counts()),
          serviceDynamo: perMinute(byOperation(serviceDynamo.counts())),
        };
      };
      const idle = await measure('idle');
      const changing = await measure('1 change/s', (i) => oneChange(i, half));
      return [idle, changing];
    } finally {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }

  /** Even seconds: a LIVE entry through the schedule API; odd: a live event on a channel-API channel. */
  async function oneChange(i: number, half: number): Promise<void> {
    const k = (i * 7919) % half;
    const start = Date.now() + 86_400_000 + i * 60_000;
    if (i % 2 === 0) {
      // The tenant is the Host the API is called at (local mode): node:http, as fetch will not send it.
      const res = await http(`${gateway.url}/api/v1/channels/b-${k}/schedule`, {
        method: 'POST',
        host: SCHEDULE_TENANT,
        body: {
          title: `live ${i}`,
          type: 'LIVE',
          url: `${origin.url}/demo/master.m3u8`,
          start: new Date(start).toISOString(),
          end: new Date(start + 30_000).toISOString(),
        },
      });
      if (res.status !== 201) throw new Error(`LIVE entry not made: HTTP ${res.status} ${res.text}`);
    } else {
      const tenant = `bench-${Math.floor(k / PER_TENANT)}`;
      await channelStore.addEvent(
        tenant,
        `b-${k}`,
        {
          id: `e-${i}`,
          url: `${origin.url}/demo/master.m3u8`,
          start_time: start,
          end_time: start + 30_000,
          start: new Date(start).toISOString(),
          end: new Date(start + 30_000).toISOString(),
        },
        100,
      );
    }
  }
}

function printTable(rows: Row[]): void {
  console.log(
    `\nRequests per engine task-minute (${SECONDS} s measured per case, x ${(60 / SECONDS).toFixed(1)}); load ${machineLoad()}`,
  );
  console.log(
    '| channels | case | engine → DynamoDB (by operation) | engine → schedule API (by route) | engine total | schedule service → DynamoDB | engine CPU (% of a core) |',
  );
  console.log('|---:|---|---|---|---:|---|---:|');
  for (const r of rows) {
    const total = sum(r.engineDynamo) + sum(r.engineApi);
    console.log(
      `| ${r.channels.toLocaleString('en')} | ${r.mode} | ${show(r.engineDynamo)} | ${show(r.engineApi)} | ${total.toLocaleString('en')} | ${show(r.serviceDynamo)} | ${r.engineCpuPct.toFixed(1)} |`,
    );
  }
}

await main();
