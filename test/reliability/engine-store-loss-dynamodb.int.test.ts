/**
 * DynamoDB Local killed for 75 s under a channel played by hls.js, then started again on its
 * data: the engine plays on (the slate), keeps the live rules, logs a bounded number of lines, and
 * returns to the channel's content (support/store-loss.ts, which says why 75 s).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../local/dynamodb-local';
import { type RunningSystem, startSystem } from '../../local/system';
import { captureLogLines } from '../engine/helpers/log-lines';
import { CHROMIUM_PATH, chromiumAvailable } from '../support/browser';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { DynamoDbSwitch } from './support/dynamodb-outage';
import { createLoopChannel, OUTAGE_MS, playThroughStoreLoss } from './support/store-loss';
import { expectPlayedThrough } from './support/store-loss-checks';

const noChromium = !chromiumAvailable();
const skipReason = noChromium ? ` (skipped: no Chromium at ${CHROMIUM_PATH})` : '';
const dataDir = mkdtempSync(join(tmpdir(), 'onair-store-loss-'));
let system: RunningSystem;
let origin: StaticServer;
let fixtures: FixturePaths;
let revived: DynamoDbLocal | undefined;
const log = captureLogLines();

beforeAll(async () => {
  if (noChromium) return;
  fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  system = await startSystem({
    dataDir,
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    services: ['channel', 'engine'],
    env: { LOG_LEVEL: 'error', ENGINE_CHANNEL_REFRESH_MS: '500' },
  });
}, 180_000);

afterAll(async () => {
  log.restore();
  await revived?.stop();
  await system?.stop();
  await origin?.close();
});

describe(`a channel whose DynamoDB is killed for ${OUTAGE_MS / 1000} s${skipReason}`, () => {
  it.skipIf(noChromium)(
    'plays on in hls.js with the live rules kept, logs a bounded number of lines, and returns to its content',
    async () => {
      const port = new URL(system.urls.dynamodb!).port;
      const playback = await createLoopChannel(system, 'ddbloss', `${origin.url}/${fixtures.vodA.path}`);
      const before = log.lines.length;
      const run = await playThroughStoreLoss(playback, {
        kill: () => new DynamoDbSwitch(system.urls.dynamodb!).signal('SIGKILL'),
        revive: async () => {
          revived = await startDynamoDbLocal({ port: Number(port), dataDir: join(dataDir, 'dynamodb') });
        },
      });
      await expectPlayedThrough(run, log.lines.slice(before), fixtures.vodA.path.split('/')[0]!);
    },
    420_000,
  );
});
