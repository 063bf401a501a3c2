/**
 * The store-loss scenario for the engine, on any shared store: a Loop channel made through the channel
 * API plays in hls.js while the store is killed (OUTAGE_MS) and then started again on its data.
 * Returns what the assertions need; the suites (one per store) say what must hold.
 */
import { expect } from 'vitest';
import type { RunningSystem } from '../../../local/system';
import { type BrowserPlayback, playInBrowser } from '../../support/browser';
import { checkLivePlaylistRules, listMediaPlaylists } from '../../support/hls-client';
import type { Violation } from '../../support/live-rules';
import { waitOnAir } from '../../support/on-air';

/**
 * Long enough for the slate the engine keeps alone to be on air. When the store is killed the log may
 * be ahead by the channel's lead, its planning batch and the item that crossed it (wake.ts,
 * ChannelPlayout.extend: up to about 80 s for these channels), and the engine adds the slate alone only
 * once the log is within localLeadMs of its end (outage/local-continuation.ts): by 66 s after the kill
 * at worst, so this outage always needs it, and a player reaches it up to about 88 s after the kill
 * (71 s in the run measured; a 35 s outage never showed it the slate). The backoff's ceiling and the
 * once-a-minute log line, which count from the first failed store call, are held on a fake clock
 * (engine-outage-policy.test.ts; engine-store-outage.test.ts keeps a channel on the slate for two
 * minutes).
 */
export const OUTAGE_MS = 75_000;
const OUTAGE_STARTS_AFTER_MS = 15_000;
/** Played after the store is back: the player is past the slate's worst arrival (above) by 17 s. */
const PLAYED_AFTER_MS = 30_000;

/** The store under test: killed with SIGKILL, then started again on the same port and data. */
export interface KillableStore {
  /** Resolves once the store is gone (or at once, when the kill is synchronous). */
  kill(): void | Promise<void>;
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
  const seconds = (OUTAGE_STARTS_AFTER_MS + OUTAGE_MS + PLAYED_AFTER_MS) / 1000;
  // The outage is the scenario itself: real time with the store gone, not a wait for a condition.
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const outage = async () => {
    await pause(OUTAGE_STARTS_AFTER_MS);
    await store.kill();
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
