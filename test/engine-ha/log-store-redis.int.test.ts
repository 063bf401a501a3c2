/** The Redis store, on a real redis-server, keeps the playout log store contract. */
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { RedisPlayoutLogStore } from '../../engine-container/src/stores/redis-log-store';
import { logStoreContract } from './log-store-contract';
import { type RedisServer, startRedisServer } from './support/redis-server';

let server: RedisServer;
let client: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  client = new Redis(server.url);
});

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

logStoreContract('Redis store', () => new RedisPlayoutLogStore(client));
