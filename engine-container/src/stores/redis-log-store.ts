/**
 * Playout logs in Redis (ioredis). Per channel, three keys sharing a hash tag (one cluster slot):
 * `<prefix>{<channelId>}:log`, a sorted set of item JSON scored by seq; `…:last`, the last seq; and
 * `…:lease`, the writer lease (owner id, expiring by PX: Redis's own clock judges expiry, so engine
 * clocks need not agree). Appends, trims and lease changes are Lua scripts (redis-scripts.ts): atomic
 * compare-and-set. Items are kept for start-over's retention (`retainMs`, a day by default) after they
 * end, at most `maxItems` of them: `trim` drops older ones, and the keys expire that long after the
 * last item ends.
 */
import { Redis } from 'ioredis';
import { logger } from '../../../core/logger';
import type { PlayoutItem } from '../playout/item';
import { assertFollows, type LeasingLogStore } from '../playout/log-store';
import { ACQUIRE, APPEND, RELEASE, RENEW, TRIM } from './redis-scripts';

const RETAIN_AFTER_END_MS = 86_400_000;
/**
 * The most items kept per channel, whatever the retention: a day of a LIVE event (an item per 2 s poll,
 * ~1 KB each) is 43,200 items; this bounds a channel's log at ~50 MB of Redis memory.
 */
export const REDIS_RETAINED_ITEMS = 50_000;
/** The most items one trim removes (a Lua script blocks Redis while it runs). */
const TRIM_BATCH = 500;

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
  onairTrim(
    log: string,
    keepFromSeq: string,
    horizonMs: string,
    maxItems: string,
    batch: string,
  ): Promise<number>;
}

export interface RedisStoreOptions {
  /** Key prefix (default `onair:`): several deployments, or tests, can share one Redis. */
  prefix?: string;
  /** How long items are kept after they end, for start-over (default a day: the engine's retention). */
  retainMs?: number;
  /** The most items kept per channel (default REDIS_RETAINED_ITEMS). */
  maxItems?: number;
  /** The clock items are timed by (the engine's; a test's may be fake). */
  clock?: () => number;
}

export class RedisPlayoutLogStore implements LeasingLogStore {
  private readonly redis: ScriptedRedis;
  private readonly prefix: string;
  private readonly owned: boolean;
  private readonly retainMs: number;
  private readonly maxItems: number;
  private readonly clock: () => number;

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
    redis.defineCommand('onairTrim', { numberOfKeys: 1, lua: TRIM });
    this.redis = redis as ScriptedRedis;
    this.prefix = options.prefix ?? 'onair:';
    this.retainMs = options.retainMs ?? RETAIN_AFTER_END_MS;
    this.maxItems = options.maxItems ?? REDIS_RETAINED_ITEMS;
    this.clock = options.clock ?? Date.now;
  }

  private key(channelId: string, what: 'log' | 'last' | 'lease'): string {
    return `${this.prefix}{${channelId}}:${what}`;
  }

  async read(channelId: string, fromSeq = 0, toSeq?: number): Promise<PlayoutItem[]> {
    const to = toSeq === undefined ? '+inf' : `(${toSeq}`;
    const members = await this.redis.zrange(this.key(channelId, 'log'), fromSeq, to, 'BYSCORE');
    return members.map((json) => JSON.parse(json) as PlayoutItem);
  }

  async readLast(channelId: string, count: number): Promise<PlayoutItem[]> {
    if (count <= 0) return [];
    // By rank from the highest seq (ZRANGE … REV): the newest, whatever the log holds.
    const members = await this.redis.zrange(this.key(channelId, 'log'), 0, count - 1, 'REV');
    return members.reverse().map((json) => JSON.parse(json) as PlayoutItem);
  }

  async append(
    channelId: string,
    item: PlayoutItem,
    expectedLastSeq: number,
  ): Promise<'appended' | 'conflict'> {
    assertFollows(item, expectedLastSeq);
    // The retention after the item ends, and never in the past (PXAT in the past would delete the log).
    const expireAt = Math.ceil(Math.max(item.startMs + item.durationMs, Date.now()) + this.retainMs);
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

  /** Drops items before keepFromSeq that ended more than the retention ago (or beyond maxItems). */
  async trim(channelId: string, keepFromSeq: number): Promise<void> {
    await this.redis.onairTrim(
      this.key(channelId, 'log'),
      String(keepFromSeq),
      String(this.clock() - this.retainMs),
      String(this.maxItems),
      String(TRIM_BATCH),
    );
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
