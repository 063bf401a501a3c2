/**
 * The store-loss scenario for the engine, on any shared store: a Loop channel made through the channel
 * API plays in hls.js while the store is killed (OUTAGE_MS) and then started again on its data.
 * Returns what the assertions need; the suites (one per store) say what must hold.
 */
import { expect } from 'vitest';
import { LOG_INTERVAL_MS } from '../../../engine-container/src/channel/outage/outage';
import type { RunningSystem } from '../../../local/system';
import { type BrowserPlayback, playInBrowser } from '../../support/browser';
import { checkLivePlaylistRules, listMediaPlaylists } from '../../support/hls-client';
import type { Violation } from '../../support/live-rules';
import { waitOnAir } from '../../support/on-air';

/**
 * Past everything that takes time in an outage. First, how far ahead the log may be when the store
 * is killed: the channel's lead and its planning batch (wake.ts), so the player reaches the slate the
 * engine kept alone about 70 s after the kill (a 35 s outage, tried, never showed it the slate). Then
 * the backoff at its ceiling (BACKOFF_MAX_MS, reached about 25 s in) and the second minute's log line
 * due (LOG_INTERVAL_MS). What a longer outage adds, more of the same minutes, is held on a fake clock
 * (engine-store-outage.test.ts keeps a channel on the slate for two minutes).
 */
export const OUTAGE_MS = LOG_INTERVAL_MS + 15_000;
const OUTAGE_STARTS_AFTER_MS = 15_000;

/** The store under test: killed with SIGKILL, then started again on the same port and data. */
export interface KillableStore {
  kill(): void;
  revive(): Promise<void>;
}

export async function createLoopChannel(system: RunningSystem, name: string, url: string): Promise<string> {
  const post = (path: string, body: unknown, jwt?: string) =>
    fetch(`${system.urls.channel}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(jwt ? { 'x-jwt': `Bearer ${jwt}` } : {}) },
      body: JSON.stringify(body),
    });
  const answer = await post('/token', { company: 'Acme', email: `${name}@acme.test` });
  const { token } = (await answer.json()) as { token: string };
  const res = await post('/channel', { name, type: 'Loop', url }, token);
  expect(res.status).toBe(201);
  return ((await res.json()) as { playback: string }).playback;
}

export interface StoreLossRun {
  play: BrowserPlayback;
  violations: Violation[];
  /** The first media playlist's URL, to watch the channel come back. */
  variant: string;
}

export async function playThroughStoreLoss(playback: string, store: KillableStore): Promise<StoreLossRun> {
  await waitOnAir(playback, 30_000);
  const [variant] = await listMediaPlaylists(playback);
  const seconds = (OUTAGE_STARTS_AFTER_MS + OUTAGE_MS + 20_000) / 1000;
  // The outage is the scenario itself: real time with the store gone, not a wait for a condition.
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const outage = async () => {
    await pause(OUTAGE_STARTS_AFTER_MS);
    store.kill();
    await pause(OUTAGE_MS);
    await store.revive();
  };
  const [play, violations] = await Promise.all([
    playInBrowser(playback, { seconds }),
    checkLivePlaylistRules(variant!, { reloads: Math.floor(seconds / 2), intervalMs: 2000 }),
    outage(),
  ]);
  return { play, violations, variant: variant! };
}
