/**
 * The engine keeps a channel on air while its store is gone: DynamoDB Local is killed under a playing
 * channel for two minutes, then started again on its data. hls.js plays through it (it sees the slate),
 * every reload keeps the RFC 8216 live rules, the engine logs the outage in a bounded number of lines,
 * and once the store is back the channel returns to its own content within one item.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../local/dynamodb-local';
import { type RunningSystem, startSystem } from '../../local/system';
import { CHROMIUM_PATH, chromiumAvailable, describeErrors, playInBrowser } from '../support/browser';
import { ensureFixtures } from '../support/fixtures';
import { checkLivePlaylistRules, listMediaPlaylists } from '../support/hls-client';
import { waitOnAir } from '../support/on-air';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { childProcessWith } from './support/process';

const OUTAGE_MS = 120_000;
const OUTAGE_STARTS_AFTER_MS = 15_000;
const noChromium = !chromiumAvailable();
const skipReason = noChromium ? ` (skipped: no Chromium at ${CHROMIUM_PATH})` : '';

let system: RunningSystem;
let origin: StaticServer;
let revived: DynamoDbLocal | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'onair-store-loss-'));
const logLines: string[] = [];
const write = process.stdout.write.bind(process.stdout);

beforeAll(async () => {
  if (noChromium) return;
  // The engine runs in this process: its JSON log lines are counted here.
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    logLines.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
  const fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  system = await startSystem({
    dataDir,
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    services: ['channel', 'engine'],
    env: { LOG_LEVEL: 'error', ENGINE_CHANNEL_REFRESH_MS: '500' },
  });
}, 180_000);

afterAll(async () => {
  process.stdout.write = write;
  await revived?.stop();
  await system?.stop();
  await origin?.close();
});

async function createLoopChannel(url: string): Promise<string> {
  const post = (path: string, body: unknown, jwt?: string) =>
    fetch(`${system.urls.channel}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(jwt ? { 'x-jwt': `Bearer ${jwt}` } : {}) },
      body: JSON.stringify(body),
    });
  const { token } = (await (await post('/token', { company: 'Acme', email: 'loss@acme.test' })).json()) as {
    token: string;
  };
  const res = await post('/channel', { name: 'storeloss', type: 'Loop', url }, token);
  expect(res.status).toBe(201);
  return ((await res.json()) as { playback: string }).playback;
}

/** Kills DynamoDB Local for OUTAGE_MS, then starts it again on the same port and data. */
async function outage(): Promise<void> {
  const port = new URL(system.urls.dynamodb!).port;
  const jvm = childProcessWith(['DynamoDBLocal.jar', '-port', port]);
  expect(jvm, 'the test’s own DynamoDB Local').toBeDefined();
  process.kill(jvm!, 'SIGKILL');
  // The outage itself is the scenario: two minutes of real time with the store gone.
  await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
  revived = await startDynamoDbLocal({ port: Number(port), dataDir: join(dataDir, 'dynamodb') });
}

describe(`a channel whose DynamoDB is killed for two minutes${skipReason}`, () => {
  it.skipIf(noChromium)(
    'plays on in hls.js with the live rules kept, logs a bounded number of lines, and returns to its content',
    async () => {
      const fixtures = await ensureFixtures();
      const playback = await createLoopChannel(`${origin.url}/${fixtures.vodA.path}`);
      await waitOnAir(playback, 30_000);
      const [variant] = await listMediaPlaylists(playback);
      const seconds = (OUTAGE_STARTS_AFTER_MS + OUTAGE_MS + 20_000) / 1000;
      const before = logLines.length;
      const [play, violations] = await Promise.all([
        playInBrowser(playback, { seconds }),
        checkLivePlaylistRules(variant!, { reloads: Math.floor(seconds / 2), intervalMs: 2000 }),
        new Promise((resolve) => setTimeout(resolve, OUTAGE_STARTS_AFTER_MS)).then(outage),
      ]);
      expect(violations).toEqual([]);
      expect(play.started).toBe(true);
      expect(play.fatalErrors, describeErrors(play.fatalErrors)).toEqual([]);
      expect(play.stalls).toBeLessThanOrEqual(1);
      const errorLines = logLines.slice(before).filter((l) => l.includes('"level":"error"'));
      // One line per failing part per minute at most: the channel, and the reads around it.
      expect(errorLines.length, errorLines.slice(0, 5).join('')).toBeLessThanOrEqual(12);
      // Back on its own content: the playlist's newest segment comes from the VOD again, not the slate.
      await waitFor(
        async () => (await (await fetch(variant!)).text()).trim().split('\n').at(-1) ?? '',
        (last) => last.includes(fixtures.vodA.path.split('/')[0]!),
        { timeoutMs: 60_000, intervalMs: 1000, what: 'the channel back on its VOD' },
      );
    },
    420_000,
  );
});
