/**
 * The Redis playout log keeps items, not segments, for start-over's retention (stores/redis-log-store.ts),
 * on a real redis-server: a trim to the live window drops only items that ended before the retention, at
 * most `maxItems` are kept, and an engine core over Redis time-shifts from hours ago, not only its last
 * minutes.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisPlayoutLogStore } from '../../engine-container/src/stores/redis-log-store';
import { timeshiftRange } from '../../engine-container/src/timeshift/timeshift-range';
import { item } from '../engine-ha/log-store-contract';
import { type RedisServer, startRedisServer } from '../engine-ha/support/redis-server';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { HOUR, playedChannel } from './support/played-core';

const MINUTE = 60_000;
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

/** A fresh key prefix per test: one server serves the file. */
const prefix = () => `t-${randomUUID().slice(0, 8)}:`;

/** 100 one-minute items, the last ending now. */
async function hundredMinutes(store: RedisPlayoutLogStore, nowMs: number): Promise<void> {
  for (let seq = 0; seq < 100; seq++) {
    const startMs = nowMs - (100 - seq) * MINUTE;
    expect(await store.append('ch', item(seq, { startMs, durationMs: MINUTE }), seq - 1)).toBe('appended');
  }
}

const seqs = async (store: RedisPlayoutLogStore) => (await store.read('ch')).map((i) => i.seq);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

describe('the Redis playout log on a trim to the live window', () => {
  it('keeps every item that ended within the retention', async () => {
    const now = Date.now();
    const store = new RedisPlayoutLogStore(client, { prefix: prefix(), retainMs: HOUR, clock: () => now });
    await hundredMinutes(store, now);
    await store.trim('ch', 99);
    // Item k ended at now - (99 - k) min: those that ended in the last hour are 40 to 99.
    expect(await seqs(store)).toEqual(range(40, 100));
  });

  it('keeps at most maxItems, the newest', async () => {
    const now = Date.now();
    const store = new RedisPlayoutLogStore(client, {
      prefix: prefix(),
      retainMs: 24 * HOUR,
      maxItems: 10,
      clock: () => now,
    });
    await hundredMinutes(store, now);
    await store.trim('ch', 99);
    expect(await seqs(store)).toEqual(range(90, 100));
  });

  it('never drops an item from the keep-from seq on, however old', async () => {
    const now = Date.now();
    const store = new RedisPlayoutLogStore(client, { prefix: prefix(), retainMs: 30_000, clock: () => now });
    await hundredMinutes(store, now);
    await store.trim('ch', 50);
    expect(await seqs(store)).toEqual(range(50, 100));
  });
});

describe('start-over over the Redis playout log', () => {
  it('gives an EVENT playlist from an hour and a half ago, from the segment on air then', async () => {
    const clock = { now: Date.UTC(2025, 0, 1) };
    const store = new RedisPlayoutLogStore(client, {
      prefix: prefix(),
      retainMs: 24 * HOUR,
      clock: () => clock.now,
    });
    const ch = await playedChannel(2, 0, { clock, logStore: store });
    const startMs = clock.now - 90 * MINUTE;
    const params = new URLSearchParams({ start: new Date(startMs).toISOString() });
    const event = parseMediaPlaylist(
      await ch.core.timeshift.media(ch.runtime, 'v0', timeshiftRange(params, clock.now, 24 * HOUR)!),
    );
    const first = event.segments[0]!;
    console.info(
      `${(await store.read('ch')).length} items kept in Redis; ${event.segments.length} segments listed`,
    );
    expect(first.programDateTimeMs!).toBeLessThanOrEqual(startMs);
    expect(first.programDateTimeMs! + first.duration * 1000).toBeGreaterThan(startMs);
    expect(event.segments.length).toBeGreaterThanOrEqual(90 * 30);
  });
});
