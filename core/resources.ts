/**
 * The one source of truth for onair's state: DynamoDB tables (keys, indexes, TTL), SQS queues and S3
 * buckets. The CDK stack (lib/) and the local cloud (local/) both create exactly these, and runtime code
 * finds each by the environment variable named here (set by CDK on every Lambda/task, by `npm start`
 * locally), falling back to the local naming `onair-local-<id>`.
 */
import { readOptionalString } from './env';

export type KeyType = 'S' | 'N';
export interface KeyDef {
  name: string;
  type: KeyType;
}
export interface IndexDef {
  name: string;
  partitionKey: KeyDef;
  sortKey?: KeyDef;
}
export interface TableDef {
  id: string;
  env: string;
  partitionKey: KeyDef;
  sortKey?: KeyDef;
  indexes?: readonly IndexDef[];
  ttlAttribute?: string;
}

const s = (name: string): KeyDef => ({ name, type: 'S' });
const n = (name: string): KeyDef => ({ name, type: 'N' });

export const tables = {
  /**
   * Channel service. Items: `pk=CHANNEL#<name>, sk=CHANNEL` (a channel; name is unique in the deployment)
   * and `pk=TENANT#<tenant>, sk=COUNTER` (the tenant's channel count, the trial limit's guard).
   */
  channels: {
    id: 'channels',
    env: 'TABLE_CHANNELS',
    partitionKey: s('pk'),
    sortKey: s('sk'),
    indexes: [
      { name: 'byTenant', partitionKey: s('tenant'), sortKey: s('name') },
      // Every channel carries kind=channel: the engine fleet lists all channels with one Query.
      { name: 'byKind', partitionKey: s('kind'), sortKey: s('name') },
    ],
  },
  /** Fixed-window counters for token issuance: `pk=<scope>#<key>#<windowStart>`, expired by TTL. */
  rateLimits: {
    id: 'rate-limits',
    env: 'TABLE_RATE_LIMITS',
    partitionKey: s('pk'),
    ttlAttribute: 'expiresAt',
  },
  /** Schedule service channels: one partition per tenant (<schedule_host>). */
  scheduleChannels: {
    id: 'schedule-channels',
    env: 'TABLE_SCHEDULE_CHANNELS',
    partitionKey: s('tenant'),
    sortKey: s('id'),
  },
  /** Auto-schedulers (mrss). `byKind` lets the timer list every feed without a Scan. */
  scheduleFeeds: {
    id: 'schedule-feeds',
    env: 'TABLE_SCHEDULE_FEEDS',
    partitionKey: s('tenant'),
    sortKey: s('id'),
    indexes: [{ name: 'byKind', partitionKey: s('kind'), sortKey: s('feedKey') }],
  },
  /**
   * Schedule entries: `channelKey=<tenant>#<channelId>`, sorted by `end_time`, so the entries overlapping
   * [a, b) are one Query `end_time > a` filtered on `start_time < b`.
   */
  scheduleEntries: {
    id: 'schedule-entries',
    env: 'TABLE_SCHEDULE_ENTRIES',
    partitionKey: s('channelKey'),
    sortKey: n('end_time'),
  },
  /** AutoABR jobs; `byStatus` lists the ACTIVE ones. */
  autoabrJobs: {
    id: 'autoabr-jobs',
    env: 'TABLE_AUTOABR_JOBS',
    partitionKey: s('id'),
    indexes: [{ name: 'byStatus', partitionKey: s('status'), sortKey: n('createdAt') }],
  },
  /**
   * The engine's playout logs: `channelId`, item `seq` (conditional append keeps one log). Each channel's
   * writer lease is the item at `seq = -1` (`leaseOwner`, `leaseExpiresMs`; conditional writes).
   */
  playoutLog: {
    id: 'playout-log',
    env: 'TABLE_PLAYOUT_LOG',
    partitionKey: s('channelId'),
    sortKey: n('seq'),
    ttlAttribute: 'expiresAt',
  },
  /**
   * Channels' as-run logs (core/asrun/, docs/asrun.md): `channelId` (the engine's channel id) and the
   * entry's `startMs`, written by every engine task alike, expired by TTL after the stage's retention.
   * `byDay` (the UTC day it started, then channel and start) lists a day's entries for the billing files.
   */
  asRun: {
    id: 'asrun',
    env: 'TABLE_ASRUN',
    partitionKey: s('channelId'),
    sortKey: n('startMs'),
    indexes: [{ name: 'byDay', partitionKey: s('day'), sortKey: s('channelStart') }],
    ttlAttribute: 'expiresAt',
  },
} as const satisfies Record<string, TableDef>;

export interface QueueDef {
  id: string;
  env: string;
  /** Seconds a received message stays invisible; the consumer must finish (or extend) within it. */
  visibilityTimeoutSeconds: number;
  /** Receives after which a message goes to the dead-letter queue `<id>-dlq`. */
  maxReceiveCount: number;
}

export const queues = {
  channelEvents: {
    id: 'channel-events',
    env: 'QUEUE_CHANNEL_EVENTS',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
  },
  autoabrJobs: {
    id: 'autoabr-jobs',
    env: 'QUEUE_AUTOABR_JOBS',
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 3,
  },
} as const satisfies Record<string, QueueDef>;

export interface BucketDef {
  id: string;
  env: string;
}

export const buckets = {
  /** AutoABR settings documents, references and results. */
  autoabr: { id: 'autoabr', env: 'BUCKET_AUTOABR' },
  /** The daily as-run CSV per channel, for billing tools: `asrun/<day>/<channel>.csv`. */
  asRun: { id: 'asrun', env: 'BUCKET_ASRUN' },
} as const satisfies Record<string, BucketDef>;

export const localName = (id: string): string => `onair-local-${id}`;

/** The physical table name at run time. */
export const tableName = (t: TableDef): string => readOptionalString(t.env) ?? localName(t.id);
/** The queue URL at run time (CDK passes URLs; locally `npm start` sets them). */
export const queueUrl = (q: QueueDef): string => {
  const url = readOptionalString(q.env);
  if (!url) throw new Error(`environment variable ${q.env} (URL of queue ${q.id}) is not set`);
  return url;
};
export const bucketName = (b: BucketDef): string => readOptionalString(b.env) ?? localName(b.id);
