/**
 * The failover scenario, run once per store (failover-suite.ts asserts on what it records): three
 * engine processes behind a round-robin proxy play a WebHook channel whose webhook advances a cursor;
 * the webhook answers call LATE_CALL too late (slate), kills the lease holder while it asks call
 * KILL_HOLDER_CALL (that answer is never read), and kills a non-holder at KILL_OTHER_CALL. Each killed
 * engine is restarted once the survivors have appended past its death. Meanwhile a poller holds every
 * reload through the proxy to the RFC 8216 live rules, the log is recorded as it grows, and (option)
 * hls.js plays through the proxy.
 */

import { waitFor } from '../../../core/wait-for';
import { PLAN_BATCH_MS } from '../../../engine-container/src/channel/wake';
import type { PlayoutItem } from '../../../engine-container/src/playout/item';
import { type BrowserPlayback, playInBrowser } from '../../support/browser';
import { ensureFixtures } from '../../support/fixtures';
import { checkLivePlaylistRules, type Violation } from '../../support/hls-client';
import { type StaticServer, startStaticServer } from '../../support/static-server';
import { type CallPlan, type CountingWebhook, startCountingWebhook } from './counting-webhook';
import { type EngineProcess, EngineProcesses } from './engine-processes';
import type { HaStore } from './ha-stores';
import { LogRecorder } from './log-recorder';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy';

export const CHANNEL = 'ha-hook';
/** The call answered too late (the engines' webhook timeout is 1 s): that slot plays the slate. */
const LATE_CALL = 12;
/** While answering this call, the engine holding the lease (it asked: it holds it) is killed. */
const KILL_HOLDER_CALL = 16;
/** While answering this call, an engine that does not hold the lease is killed. */
const KILL_OTHER_CALL = 22;
/**
 * The run ends once the webhook has had this many calls (≥ 20 VOD items, failover-suite.ts). The
 * engines ask in planning batches (wake.ts): calls 0–16 come in the first seconds (the holder killed at
 * 16), 17–23 some 25 s in (the other killed at 22), 24–30 some 53 s in, with both restarted engines
 * serving; measured 2026-11-28.
 */
const LAST_CALL = 30;
/** Reloads, one a second: past the batch that makes LAST_CALL, with both restarted engines serving. */
export const RELOADS = 60;

export interface Kill {
  call: number;
  engine: EngineProcess;
  heldLease: boolean;
  atMs: number;
}

export interface ScenarioResult {
  violations: Violation[];
  /** Per restart: status of the restarted engine's first answer, and whether it matched a survivor's. */
  restarts: Array<{ first: number; same: boolean }>;
  items: PlayoutItem[];
  regressions: string[];
  browser?: BrowserPlayback & { fromMs: number; toMs: number };
}

const text = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
};

export class FailoverScenario {
  readonly kills: Kill[] = [];
  shared!: HaStore;
  webhook!: CountingWebhook;
  proxy!: RoundRobinProxy;
  private origin!: StaticServer;
  private engines!: EngineProcesses;

  async setUp(startStore: () => Promise<HaStore>): Promise<void> {
    const fixtures = await ensureFixtures();
    [this.shared, this.origin] = await Promise.all([startStore(), startStaticServer(fixtures.root)]);
    const vods = [fixtures.vodA, fixtures.vodB].map((f) => `${this.origin.url}/${f.path}`);
    this.webhook = await startCountingWebhook(vods, (n) => this.plan(n));
    this.engines = new EngineProcesses({
      ...this.shared.env,
      HA_STORE_URL: this.shared.url,
      HA_CHANNEL: CHANNEL,
      HA_WEBHOOK_URL: this.webhook.url,
      HA_WEBHOOK_TIMEOUT_MS: '1000',
      HA_SLATE_URI: `${this.origin.url}/${fixtures.slate.path}`,
      HA_LEASE_TTL_S: '2',
    });
    await Promise.all([this.engines.start(), this.engines.start(), this.engines.start()]);
    this.proxy = await startRoundRobinProxy(() => this.engines.running.map((e) => e.port));
  }

  async tearDown(): Promise<void> {
    await this.engines?.stopAll();
    await this.proxy?.close();
    await this.webhook?.close();
    await Promise.all([this.shared?.stop(), this.origin?.close()]);
  }

  /** Plays the scenario to its end (LAST_CALL) and returns what was observed. */
  async run(withBrowser: boolean): Promise<ScenarioResult> {
    const master = `${this.proxy.url}/channels/${CHANNEL}/master.m3u8`;
    await waitFor(
      () => text(master),
      (r) => r.status === 200,
      { what: 'the channel on air', timeoutMs: 30_000 },
    );
    const recorder = new LogRecorder(this.shared.store, CHANNEL);
    recorder.start(300);
    const media = `${this.proxy.url}/channels/${CHANNEL}/0.m3u8`;
    const rules = checkLivePlaylistRules(media, { reloads: RELOADS, intervalMs: 1000 });
    // 55 s of play from here spans the holder's kill (a few seconds in) and the survivors' appends after
    // it, within the reloads' minute.
    const fromMs = Date.now();
    const browser = withBrowser
      ? playInBrowser(master, { seconds: 55 }).then((p) => ({ ...p, fromMs, toMs: Date.now() }))
      : undefined;
    const restarts: ScenarioResult['restarts'] = [];
    for (const k of [0, 1]) {
      await waitFor(() => this.kills.length > k, Boolean, {
        what: `kill ${k + 1}`,
        timeoutMs: 90_000,
        intervalMs: 50,
      });
      // The survivors take over: the slot of the call that died gets its item, from another call. A
      // holder killed in the middle of a planning batch leaves up to a batch of log ahead (wake.ts:
      // PLAN_BATCH_MS to twice it), which runs down before the survivors' wake.
      const seqAtKill = recorder.maxSeq;
      await waitFor(() => recorder.maxSeq > seqAtKill, Boolean, {
        what: 'an append after the kill',
        timeoutMs: 15_000 + 2 * PLAN_BATCH_MS,
      });
      restarts.push(await this.compareWithSurvivor(await this.engines.start(this.kills[k]!.engine.port)));
    }
    await waitFor(() => this.webhook.calls.length >= LAST_CALL, Boolean, {
      what: `${LAST_CALL} webhook calls`,
      timeoutMs: 120_000,
    });
    const [violations, played] = await Promise.all([rules, browser]);
    await this.engines.stopAll();
    await recorder.stop();
    const { regressions } = recorder;
    return { violations, restarts, items: recorder.sorted(), regressions, browser: played };
  }

  private plan(n: number): CallPlan {
    if (n === LATE_CALL) return { kind: 'late', delayMs: 2500 };
    if (n === KILL_HOLDER_CALL) return { kind: 'drop', before: () => this.kill(n, true) };
    if (n === KILL_OTHER_CALL) return { kind: 'answer', before: () => this.kill(n, false) };
    return { kind: 'answer' };
  }

  /** Kills (SIGKILL) the engine holding the lease (holder) or another one, and notes which. */
  private async kill(call: number, holder: boolean): Promise<void> {
    const owner = await this.shared.leaseOwner(CHANNEL);
    const engine = this.engines.running.find((e) => (e.instanceId === owner) === holder);
    if (!engine) throw new Error(`no engine to kill at call ${call} (lease owner ${owner})`);
    this.kills.push({ call, engine, heldLease: engine.instanceId === owner, atMs: Date.now() });
    await this.engines.kill(engine.port);
  }

  /**
   * A playlist changes only at segment boundaries: when a survivor serves the same bytes before and
   * after the restarted engine answered, the restarted engine answered within the same moment.
   */
  private async compareWithSurvivor(restarted: EngineProcess): Promise<{ first: number; same: boolean }> {
    const survivor = this.engines.running.find((e) => e.port !== restarted.port)!;
    const path = `/channels/${CHANNEL}/0.m3u8`;
    for (let attempt = 0; ; attempt++) {
      const before = await text(survivor.url + path);
      const answer = await text(restarted.url + path);
      const after = await text(survivor.url + path);
      if (before.body === after.body || attempt === 4)
        return { first: answer.status, same: answer.body === before.body && answer.status === 200 };
    }
  }
}
