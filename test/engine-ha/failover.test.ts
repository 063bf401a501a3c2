/**
 * Failover with no gap, counted: three engine processes share a Redis playout log behind a round-robin
 * proxy and play a WebHook channel whose webhook advances a cursor. Mid-run the engine holding the
 * channel's writer lease is killed (SIGKILL) while it is asking the webhook, later an engine that does
 * not hold it; both come back on the same port. Through it all, every reload through the proxy keeps
 * the RFC 8216 live rules (media sequence never goes down), the shared log only grows, a restarted
 * engine serves the survivors' bytes at once, and the webhook was called once per item (the one call
 * whose engine died before the answer is counted apart, as is the call that timed out into a slate).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisPlayoutLogStore } from '../../engine-container/src/stores/redis-log-store';
import { ensureFixtures } from '../support/fixtures';
import { checkLivePlaylistRules } from '../support/hls-client';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { waitFor } from '../support/wait-for';
import { type CallPlan, type CountingWebhook, startCountingWebhook } from './support/counting-webhook';
import { type EngineProcess, EngineProcesses } from './support/engine-processes';
import { LogRecorder } from './support/log-recorder';
import { type RedisServer, startRedisServer } from './support/redis-server';
import { type RoundRobinProxy, startRoundRobinProxy } from './support/round-robin-proxy';

const CHANNEL = 'ha-hook';
/** The call answered too late (the engine's webhook timeout is 1 s): that slot plays the slate. */
const LATE_CALL = 12;
/** While answering this call, the test kills the engine holding the lease (it asked: it holds it). */
const KILL_HOLDER_CALL = 16;
/** While answering this call, the test kills an engine that does not hold the lease. */
const KILL_OTHER_CALL = 22;
/** The run ends once the webhook has had this many calls (≥ 20 items after the first window). */
const LAST_CALL = 34;

let redis: RedisServer;
let client: Redis;
let origin: StaticServer;
let webhook: CountingWebhook;
let engines: EngineProcesses;
let proxy: RoundRobinProxy;
const killed: Array<{ call: number; engine: EngineProcess; heldLease: boolean }> = [];

async function leaseHolder(): Promise<string | null> {
  return client.get(`onair:{${CHANNEL}}:lease`);
}

/** Kills the engine holding the lease (holder) or another one, and notes which. */
async function kill(call: number, holder: boolean): Promise<void> {
  const owner = await leaseHolder();
  const engine = engines.running.find((e) => (e.instanceId === owner) === holder);
  if (!engine) throw new Error(`no engine to kill at call ${call} (lease owner ${owner})`);
  killed.push({ call, engine, heldLease: engine.instanceId === owner });
  await engines.kill(engine.port);
}

function plan(n: number): CallPlan {
  if (n === LATE_CALL) return { kind: 'late', delayMs: 2500 };
  if (n === KILL_HOLDER_CALL) return { kind: 'drop', before: () => kill(n, true) };
  if (n === KILL_OTHER_CALL) return { kind: 'answer', before: () => kill(n, false) };
  return { kind: 'answer' };
}

beforeAll(async () => {
  const fixtures = await ensureFixtures();
  [redis, origin] = await Promise.all([startRedisServer(), startStaticServer(fixtures.root)]);
  client = new Redis(redis.url);
  webhook = await startCountingWebhook(
    [`${origin.url}/${fixtures.vodA.path}`, `${origin.url}/${fixtures.vodB.path}`],
    plan,
  );
  engines = new EngineProcesses({
    HA_STORE_URL: redis.url,
    HA_CHANNEL: CHANNEL,
    HA_WEBHOOK_URL: webhook.url,
    HA_WEBHOOK_TIMEOUT_MS: '1000',
    HA_SLATE_URI: `${origin.url}/${fixtures.slate.path}`,
    HA_LEASE_TTL_S: '2',
  });
  await Promise.all([engines.start(), engines.start(), engines.start()]);
  proxy = await startRoundRobinProxy(() => engines.running.map((e) => e.port));
}, 120_000);

afterAll(async () => {
  await engines?.stopAll();
  await proxy?.close();
  await webhook?.close();
  client?.disconnect();
  await Promise.all([redis?.stop(), origin?.close()]);
});

const text = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
};

/**
 * A playlist changes only at segment boundaries: when a survivor serves the same bytes before and
 * after the restarted engine answered, the restarted engine answered within the same moment.
 */
async function compareWithSurvivor(restarted: EngineProcess): Promise<{ first: number; same: boolean }> {
  const survivor = engines.running.find((e) => e.port !== restarted.port)!;
  const path = `/channels/${CHANNEL}/0.m3u8`;
  for (let attempt = 0; ; attempt++) {
    const before = await text(survivor.url + path);
    const answer = await text(restarted.url + path);
    const after = await text(survivor.url + path);
    if (before.body === after.body || attempt === 4)
      return { first: answer.status, same: answer.body === before.body && answer.status === 200 };
  }
}

describe('three engines behind a load balancer, sharing a Redis playout log', () => {
  it('keep serving through kills and restarts, with one webhook call per item', async () => {
    const master = `${proxy.url}/channels/${CHANNEL}/master.m3u8`;
    await waitFor(
      () => text(master),
      (r) => r.status === 200,
      { what: 'the channel on air', timeoutMs: 30_000 },
    );
    const recorder = new LogRecorder(new RedisPlayoutLogStore(client), CHANNEL);
    recorder.start(300);
    const rules = checkLivePlaylistRules(`${proxy.url}/channels/${CHANNEL}/0.m3u8`, {
      reloads: 80,
      intervalMs: 1000,
    });

    const restarts: Array<{ first: number; same: boolean }> = [];
    for (const k of [0, 1]) {
      await waitFor(() => killed.length > k, Boolean, {
        what: `kill ${k + 1}`,
        timeoutMs: 90_000,
        intervalMs: 50,
      });
      // The survivors take over: the slot of the call that died gets its item, from another call.
      const seqAtKill = recorder.maxSeq;
      await waitFor(() => recorder.maxSeq > seqAtKill, Boolean, {
        what: 'an append after the kill',
        timeoutMs: 15_000,
      });
      const restarted = await engines.start(killed[k]!.engine.port);
      restarts.push(await compareWithSurvivor(restarted));
    }
    await waitFor(() => webhook.calls.length >= LAST_CALL, Boolean, {
      what: `${LAST_CALL} webhook calls`,
      timeoutMs: 120_000,
    });
    const violations = await rules;
    await engines.stopAll();
    await recorder.stop();

    expect(killed.map((k) => k.heldLease)).toEqual([true, false]);
    expect(restarts).toEqual([
      { first: 200, same: true },
      { first: 200, same: true },
    ]);
    expect(violations).toEqual([]);
    expect(proxy.served.get('none') ?? 0).toBe(0);
    expect(recorder.regressions).toEqual([]);

    const items = recorder.sorted();
    expect(items.map((i) => i.seq)).toEqual(items.map((_, k) => k));
    const vodIds = items.filter((i) => i.kind === 'vod').map((i) => i.id);
    const slates = items.filter((i) => i.kind === 'slate');
    const byOutcome = (o: string) => webhook.calls.filter((c) => c.outcome === o);
    // Each answered call is on air exactly once, in call order; nothing on air was not answered.
    expect(vodIds).toEqual(byOutcome('answered').map((c) => c.id));
    expect(slates).toHaveLength(1);
    expect(slates[0]!.reason).toMatch(/did not answer within 1000 ms/);
    expect(byOutcome('late')).toHaveLength(1);
    expect(byOutcome('dropped')).toHaveLength(1);
    expect(webhook.calls.length).toBe(vodIds.length + slates.length + byOutcome('dropped').length);
    expect(vodIds.length).toBeGreaterThanOrEqual(20);
    console.info(
      `HA run: ${webhook.calls.length} webhook calls, ${items.length} items (${vodIds.length} VOD, ${slates.length} slate), 80 reloads through the proxy`,
      Object.fromEntries(proxy.served),
    );
  }, 240_000);
});
