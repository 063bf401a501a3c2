/**
 * Playout logs in Redis (ioredis). Per channel, three keys sharing a hash tag (one cluster slot):
 * `<prefix>{<channelId>}:log`, a sorted set of item JSON scored by seq; `…:last`, the last seq; and
 * `…:lease`, the writer lease (owner id, expiring by PX: Redis's own clock judges expiry, so engine
 * clocks need not agree). Appends and lease changes are Lua scripts (redis-scripts.ts): atomic
 * compare-and-set. Keys expire a day after the last item ends; `trim` drops items before the window.
 */
import { Redis } from 'ioredis';
import { logger } from '../../../core/logger';
import type { PlayoutItem } from '../playout/item';
import { assertFollows, type LeasingLogStore } from '../playout/log-store';
import { ACQUIRE, APPEND, RELEASE, RENEW } from './redis-scripts';

const RETAIN_AFTER_END_MS = 86_400_000;

/** The scripts, as ioredis defines them on the client (EVALSHA, falling back to EVAL once). */
interface ScriptedRedis extends Redis {
  onairAppend(
    log: string,
    last: string,
    expected: string,
    seq: string,
    json: string,
    expireAt: string,
  ): Promise<number>;
  onairAcquire(lease: string, owner: string, ttlMs: string): Promise<number>;
  onairRenew(lease: string, owner: string, ttlMs: string): Promise<number>;
  onairRelease(lease: string, owner: string): Promise<number>;
}

export interface RedisStoreOptions {
  /** Key prefix (default `onair:`): several deployments, or tests, can share one Redis. */
  prefix?: string;
}

export class RedisPlayoutLogStore implements LeasingLogStore {
  private readonly redis: ScriptedRedis;
  private readonly prefix: string;
  private readonly owned: boolean;

  /** Takes a client (the caller closes it) or a redis:// URL (close() quits the client made here). */
  constructor(client: Redis | string, options: RedisStoreOptions = {}) {
    this.owned = typeof client === 'string';
    // Bounded like every store call (core/aws.ts): a command fails after one reconnect attempt or 4 s, so
    // an engine whose Redis is gone falls back to playing on alone instead of waiting in ioredis's queue.
    const redis =
      typeof client === 'string'
        ? new Redis(client, {
            lazyConnect: true,
            maxRetriesPerRequest: 1,
            commandTimeout: 4000,
            connectTimeout: 2000,
          })
        : client;
    // ioredis reconnects by itself; without a listener it prints each failed attempt to stderr.
    if (this.owned) redis.on('error', (err: Error) => logger.warn('redis store connection', { err }));
    redis.defineCommand('onairAppend', { numberOfKeys: 2, lua: APPEND });
    redis.defineCommand('onairAcquire', { numberOfKeys: 1, lua: ACQUIRE });
    redis.defineCommand('onairRenew', { numberOfKeys: 1, lua: RENEW });
    redis.defineCommand('onairRelease', { numberOfKeys: 1, lua: RELEASE });
    this.redis = redis as ScriptedRedis;
    this.prefix = options.prefix ?? 'onair:';
  }

  private key(channelId: string, what: 'log' | 'last' | 'lease'): string {
    return `${this.prefix}{${channelId}}:${what}`;
  }

  async read(channelId: string, fromSeq = 0): Promise<PlayoutItem[]> {
    const members = await this.redis.zrange(this.key(channelId, 'log'), fromSeq, '+inf', 'BYSCORE');
    return members.map((json) => JSON.parse(json) as PlayoutItem);
  }

  async append(
    channelId: string,
    item: PlayoutItem,
    expectedLastSeq: number,
  ): Promise<'appended' | 'conflict'> {
    assertFollows(item, expectedLastSeq);
    // A day after the item ends, and never in the past (PXAT in the past would delete the log).
    const expireAt = Math.ceil(Math.max(item.startMs + item.durationMs, Date.now()) + RETAIN_AFTER_END_MS);
    const done = await this.redis.onairAppend(
      this.key(channelId, 'log'),
      this.key(channelId, 'last'),
      String(expectedLastSeq),
      String(item.seq),
      JSON.stringify(item),
      String(expireAt),
    );
    return done === 1 ? 'appended' : 'conflict';
  }

  async trim(channelId: string, keepFromSeq: number): Promise<void> {
    await this.redis.zremrangebyscore(this.key(channelId, 'log'), '-inf', `(${keepFromSeq}`);
  }

  async acquireLease(channelId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.onairAcquire(this.key(channelId, 'lease'), owner, String(ttlMs))) === 1;
  }

  async renewLease(channelId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.onairRenew(this.key(channelId, 'lease'), owner, String(ttlMs))) === 1;
  }

  async releaseLease(channelId: string, owner: string): Promise<void> {
    await this.redis.onairRelease(this.key(channelId, 'lease'), owner);
  }

  async close(): Promise<void> {
    if (this.owned) await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
