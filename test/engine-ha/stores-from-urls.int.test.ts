/**
 * kvstoreUrl / cachestoreUrl select the shared store: redis:// a Redis server, dynamodb://<table> a
 * DynamoDB table. Engines given the same URL share one log and ask once per item between them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/env';
import { tables } from '../../core/resources';
import { waitFor } from '../../core/wait-for';
import { Engine } from '../../engine-container/src/engine';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import { DynamoDbPlayoutLogStore } from '../../engine-container/src/stores/dynamo-log-store';
import { RedisPlayoutLogStore } from '../../engine-container/src/stores/redis-log-store';
import type { LocalCloud } from '../../local/cloud';
import { fakeWorld, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { startTestCloud } from '../support/local-cloud';
import { type RedisServer, startRedisServer } from './support/redis-server';

let redis: RedisServer;
let cloud: LocalCloud;

beforeAll(async () => {
  [redis, cloud] = await Promise.all([startRedisServer(), startTestCloud()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([redis?.stop(), cloud?.stop()]);
});

const am = { getNextVod: async () => ({ id: 'x', title: 'x', uri: 'https://o.test/x.m3u8' }) };

describe('the shared store options', () => {
  it.each([
    [
      { kvstoreUrl: 'https://kv.example.com' },
      'kvstoreUrl: must be a redis://, rediss:// or dynamodb:// URL',
    ],
    [{ cachestoreUrl: 'memcached://cache:11211' }, 'cachestoreUrl: must be a redis://'],
    [
      { kvstoreUrl: 'redis://127.0.0.1:1', cachestoreUrl: 'redis://127.0.0.1:2' },
      'cachestoreUrl: names another store than kvstoreUrl',
    ],
    [
      { kvstoreUrl: 'redis://127.0.0.1:1', logStore: new InMemoryPlayoutLogStore() },
      'logStore: pass logStore or kvstoreUrl/cachestoreUrl, not both',
    ],
  ])('refuses %o at construction', (options, message) => {
    expect(() => new Engine(am, options)).toThrow(ConfigError);
    expect(() => new Engine(am, options)).toThrow(message);
  });

  it('opens a Redis store for redis:// and a DynamoDB store on the named table for dynamodb://', async () => {
    const viaRedis = new Engine(am, { kvstoreUrl: redis.url, port: 0 });
    const viaCache = new Engine(am, { cachestoreUrl: redis.url, port: 0 });
    const viaDynamo = new Engine(am, { kvstoreUrl: `dynamodb://${cloud.env[tables.playoutLog.env]}` });
    expect(viaRedis.core.store).toBeInstanceOf(RedisPlayoutLogStore);
    expect(viaCache.core.store).toBeInstanceOf(RedisPlayoutLogStore);
    expect(viaDynamo.core.store).toBeInstanceOf(DynamoDbPlayoutLogStore);
    await Promise.all([viaRedis.stop(), viaCache.stop(), viaDynamo.stop()]);
  });
});

async function twoEnginesOneLog(url: string) {
  const world = fakeWorld();
  let handedOut = 0;
  const answer = () => vodResponse(world.a, { id: `ep-${handedOut++}` });
  const channel = `ch-${Math.random().toString(36).slice(2, 8)}`;
  const managers = [new ScriptedAssetManager(answer), new ScriptedAssetManager(answer)];
  const engines = managers.map(
    (m) =>
      new Engine(m, {
        kvstoreUrl: url,
        port: 0,
        host: '127.0.0.1',
        fetch: world.origin.fetch,
        volatileKeyTTL: 1,
        channelManager: { getChannels: () => [{ id: channel, name: channel }] },
      }),
  );
  const appended: string[] = [];
  for (const e of engines)
    e.events.subscribe((ev) => ev.type === 'item_appended' && appended.push(String(ev.data.id)));
  await Promise.all(engines.map((e) => e.start()));
  let stopped = false;
  const stopAll = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(engines.map((e) => e.stop()));
  };
  try {
    const urls = engines.map((e) => `http://127.0.0.1:${e.port}/channels/${channel}/0.m3u8`);
    const bodies = await waitFor(
      () => Promise.all(urls.map(async (u) => (await fetch(u)).text())),
      (b) => b[0] === b[1] && b[0]!.startsWith('#EXTM3U'),
      { what: 'both engines to serve the same playlist', timeoutMs: 20_000 },
    );
    expect(bodies[0]).toContain('#EXT-X-MEDIA-SEQUENCE');
    // Counted once both have stopped: an ask in flight now is appended before stop() returns.
    await stopAll();
    const asks = managers.reduce((sum, m) => sum + m.requests.length, 0);
    expect(appended.length).toBeGreaterThanOrEqual(3);
    expect(asks).toBe(appended.length);
    expect(appended.sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)))).toEqual(
      appended.map((_, k) => `ep-${k}`),
    );
  } finally {
    await stopAll();
  }
}

describe('engines given one store URL', () => {
  it('share one log through Redis, asking once per item', () => twoEnginesOneLog(redis.url), 30_000);

  it(
    'share one log through DynamoDB, asking once per item',
    () => twoEnginesOneLog(`dynamodb://${cloud.env[tables.playoutLog.env]}`),
    30_000,
  );
});
