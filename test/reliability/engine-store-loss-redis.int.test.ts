/**
 * The engine's shared log on Redis (ENGINE_KVSTORE_URL), redis-server killed for 75 s under a channel
 * played by hls.js, then started again on its append-only file: the engine plays on (the slate), keeps
 * the live rules, logs a bounded number of lines, and returns to the channel's content
 * (support/store-loss.ts says why 75 s).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type RunningSystem, startSystem } from '../../local/system';
import { captureLogLines } from '../engine/helpers/log-lines';
import { type RedisServer, startRedisServer } from '../engine-ha/support/redis-server';
import { CHROMIUM_PATH, chromiumAvailable } from '../support/browser';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { createLoopChannel, OUTAGE_MS, playThroughStoreLoss } from './support/store-loss';
import { expectPlayedThrough } from './support/store-loss-checks';

const noChromium = !chromiumAvailable();
const skipReason = noChromium ? ` (skipped: no Chromium at ${CHROMIUM_PATH})` : '';
const redisDir = mkdtempSync(join(tmpdir(), 'onair-redis-loss-'));
let system: RunningSystem;
let origin: StaticServer;
let fixtures: FixturePaths;
let redis: RedisServer;
const log = captureLogLines();

beforeAll(async () => {
  if (noChromium) return;
  fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  redis = await startRedisServer({ dir: redisDir });
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    services: ['channel', 'engine'],
    env: { LOG_LEVEL: 'error', ENGINE_CHANNEL_REFRESH_MS: '500', ENGINE_KVSTORE_URL: redis.url },
  });
}, 180_000);

afterAll(async () => {
  log.restore();
  await system?.stop();
  await redis?.stop();
  await origin?.close();
});

describe(`a channel whose Redis log store is killed for ${OUTAGE_MS / 1000} s${skipReason}`, () => {
  it.skipIf(noChromium)(
    'plays on in hls.js with the live rules kept, logs a bounded number of lines, and returns to its content',
    async () => {
      const playback = await createLoopChannel(system, 'redisloss', `${origin.url}/${fixtures.vodA.path}`);
      const before = log.lines.length;
      const run = await playThroughStoreLoss(playback, {
        kill: () => {
          process.kill(redis.pid, 'SIGKILL');
        },
        revive: async () => {
          redis = await startRedisServer({ port: redis.port, dir: redisDir });
        },
      });
      await expectPlayedThrough(run, log.lines.slice(before), fixtures.vodA.path.split('/')[0]!);
    },
    420_000,
  );
});
