/**
 * The one place the schedule service's dependencies are built from the environment: DynamoDB
 * stores on the shared document client, settings, clock, ids, fetch limits. Built on first use,
 * never at import time (the local runner sets AWS_ENDPOINT_URL_* before that).
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type AsRunStore, dynamoAsRunStore } from '../../core/asrun/asrun-store';
import type { TokenVerifier } from '../../core/auth/token-verifier';
import { documentClient } from '../../core/aws';
import { dynamoStatusReader, type StatusReader } from '../../core/channel-status/status-store';
import { readUrl } from '../../core/env';
import { processGuardedFetch } from '../../core/fetch/guarded-fetch';
import { type HlsProblem, probeHls } from '../../core/fetch/hls-probe';
import { logger } from '../../core/logger';
import { tableName, tables } from '../../core/resources';
import { type Authenticate, createAuthenticator } from './api/auth';
import { readScheduleApiConfig, readSchedulerConfig } from './config';
import { type LiveSegmentReader, liveSegmentReader } from './live-target-duration';
import { runFeed, type SchedulerDeps } from './scheduler/scheduler';
import { cachedDurationResolver, createDurationCache, type DurationResolver } from './scheduler/vod-duration';
import { type ChangeStamp, dynamoChangeStamp } from './stores/change-stamp';
import { type ChannelStore, dynamoChannelStore } from './stores/channel-store';
import { dynamoEntryStore, type EntryStore } from './stores/entry-store';
import { dynamoFeedStore, type FeedKey, type FeedStore } from './stores/feed-store';

export interface ScheduleStores {
  channels: ChannelStore;
  feeds: FeedStore;
  entries: EntryStore;
  /** Moved by the channel and entry stores after each write an engine must see. */
  changes: ChangeStamp;
}

export function dynamoScheduleStores(ddb: DynamoDBDocumentClient = documentClient()): ScheduleStores {
  const channelsTable = tableName(tables.scheduleChannels);
  const entriesTable = tableName(tables.scheduleEntries);
  const changes = dynamoChangeStamp(ddb, entriesTable);
  return {
    channels: dynamoChannelStore(ddb, channelsTable, changes),
    feeds: dynamoFeedStore(ddb, tableName(tables.scheduleFeeds), channelsTable),
    entries: dynamoEntryStore(ddb, entriesTable, channelsTable, changes),
    changes,
  };
}

export interface ScheduleApiDeps extends ScheduleStores {
  authenticate: Authenticate;
  /** Channel statuses the engine writes (core/channel-status/), read from the playout log table. */
  status: StatusReader;
  /** PLAYBACK_BASE_URL: the engine's playback host, for each channel's `playback` URL. */
  playbackBaseUrl: string;
  /** Days one schedule request may span. */
  maxRangeDays: number;
  /** Hours, when an auto-scheduler's config omits scheduleRetention. */
  defaultRetentionHours: number;
  clock: () => number;
  /**
   * Fills a new auto-scheduler's channel at once (one scheduler pass over that feed), so the schedule
   * can be read right after POST /mrss. Bounded in time: whatever is not done, the timer finishes.
   */
  fillNow(key: FeedKey): Promise<void>;
  /** A VOD's duration (manual VOD entries without an end), fetched through the guarded fetch. */
  vodDurationMs: DurationResolver;
  /** Does an entry's URL answer as HLS (core/fetch/hls-probe.ts)? Through the guarded fetch. */
  probe: (url: string) => Promise<HlsProblem | undefined>;
  /** A LIVE source's longest segment (manual LIVE entries), fetched through the guarded fetch. */
  liveSegmentS: LiveSegmentReader;
  /** What the engine aired (written by the engine tasks; read only here). */
  asRun: AsRunStore;
}

export interface ApiDepsOptions {
  /** The token check used when SCHEDULE_REQUIRE_AUTH=true (the channel service's JWT verification). */
  verifyToken?: TokenVerifier;
  stores?: ScheduleStores;
  status?: StatusReader;
  env?: Record<string, string | undefined>;
}

export function apiDepsFromEnv(options: ApiDepsOptions = {}): ScheduleApiDeps {
  const config = readScheduleApiConfig(options.env);
  return {
    ...(options.stores ?? dynamoScheduleStores()),
    authenticate: createAuthenticator({ required: config.requireAuth, verifyToken: options.verifyToken }),
    status: options.status ?? dynamoStatusReader(documentClient(), tableName(tables.playoutLog)),
    playbackBaseUrl: readUrl('PLAYBACK_BASE_URL', 'http://localhost:8000', options.env),
    maxRangeDays: config.maxRangeDays,
    defaultRetentionHours: config.defaultRetentionHours,
    clock: Date.now,
    fillNow: async (key) => {
      if (config.fillNowBudgetMs === 0) return;
      const pass = runFeed(key, schedulerDepsFromEnv(options.env ?? process.env));
      let timer: NodeJS.Timeout | undefined;
      const budget = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, config.fillNowBudgetMs);
      });
      await Promise.race([pass.then(() => undefined), budget]).finally(() => clearTimeout(timer));
    },
    vodDurationMs: (url) => schedulerDepsFromEnv(options.env ?? process.env).resolveDuration(url),
    probe: (url) => {
      const scheduler = readSchedulerConfig(options.env);
      return probeHls(url, {
        fetch: processGuardedFetch(scheduler.allowPrivateUrls),
        timeoutMs: scheduler.fetchTimeoutMs,
        maxBytes: scheduler.playlistMaxBytes,
      });
    },
    liveSegmentS: (url) => {
      const scheduler = readSchedulerConfig(options.env);
      const fetch = processGuardedFetch(scheduler.allowPrivateUrls);
      return liveSegmentReader({
        timeoutMs: scheduler.fetchTimeoutMs,
        maxBytes: scheduler.playlistMaxBytes,
        fetch,
      })(url);
    },
    asRun: dynamoAsRunStore(documentClient(), tableName(tables.asRun)),
  };
}

/** Per process, like the SDK clients: a warm Lambda reuses measured VOD durations. */
const durationCache = createDurationCache();

export function schedulerDepsFromEnv(env: Record<string, string | undefined> = process.env): SchedulerDeps {
  const config = readSchedulerConfig(env);
  const stores = dynamoScheduleStores();
  // Feeds and their VOD links are the user's URLs: fetched only through the guard (docs/security.md).
  const fetch = processGuardedFetch(config.allowPrivateUrls);
  return {
    feeds: stores.feeds,
    entries: stores.entries,
    feedFetch: { timeoutMs: config.fetchTimeoutMs, maxBytes: config.feedMaxBytes, fetch },
    resolveDuration: cachedDurationResolver(durationCache, {
      timeoutMs: config.fetchTimeoutMs,
      maxBytes: config.playlistMaxBytes,
      fetch,
    }),
    horizonMs: config.horizonMs,
    feedMaxEntries: config.feedMaxEntries,
    concurrency: config.concurrency,
    clock: Date.now,
    newId: randomUUID,
    log: logger.child({ service: 'schedule-scheduler' }),
  };
}
