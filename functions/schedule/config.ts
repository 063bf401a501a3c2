/**
 * The schedule service's settings, read once from the environment (docs/schedule-api.md has the table).
 * A set-but-invalid value fails at start (core/env.ts), never silently defaulted.
 */
import { readBool, readInt } from '../../core/env';
import { allowPrivateUrlsFromEnv } from '../../core/fetch/private-urls-setting';

type Env = Record<string, string | undefined>;

export interface ScheduleApiConfig {
  /** SCHEDULE_REQUIRE_AUTH: every request needs a valid `x-jwt`. */
  requireAuth: boolean;
  /** SCHEDULE_MAX_RANGE_DAYS: the longest span one schedule request may ask for. */
  maxRangeDays: number;
  /** SCHEDULE_DEFAULT_RETENTION_HOURS: config.scheduleRetention when an auto-scheduler omits it. */
  defaultRetentionHours: number;
  /** SCHEDULE_FILL_ON_CREATE_MS: how long POST /mrss waits for the first fill (0: leave it to the timer). */
  fillNowBudgetMs: number;
}

export interface SchedulerConfig {
  /** SCHEDULE_HORIZON_HOURS: how far ahead of now schedules are filled. */
  horizonMs: number;
  /** SCHEDULE_FETCH_TIMEOUT_MS: per feed or playlist request (headers and body). */
  fetchTimeoutMs: number;
  /** SCHEDULE_FEED_MAX_BYTES: the largest feed document read. */
  feedMaxBytes: number;
  /** SCHEDULE_PLAYLIST_MAX_BYTES: the largest HLS playlist read. */
  playlistMaxBytes: number;
  /** SCHEDULE_FEED_MAX_ENTRIES: entries of a feed beyond this are ignored. */
  feedMaxEntries: number;
  /**
   * ALLOW_PRIVATE_URLS: let feeds and VODs be on private, loopback and link-local addresses (npm start
   * only; refused by default). SCHEDULE_BLOCK_PRIVATE_URLS is its deprecated inverse (docs/security.md).
   */
  allowPrivateUrls: boolean;
  /** SCHEDULE_CONCURRENCY: feeds processed at once by one run. */
  concurrency: number;
}

export function readScheduleApiConfig(env: Env = process.env): ScheduleApiConfig {
  return {
    requireAuth: readBool('SCHEDULE_REQUIRE_AUTH', false, env),
    maxRangeDays: readInt('SCHEDULE_MAX_RANGE_DAYS', 7, { min: 1, max: 31 }, env),
    defaultRetentionHours: readInt('SCHEDULE_DEFAULT_RETENTION_HOURS', 24, { min: 0, max: 8760 }, env),
    fillNowBudgetMs: readInt('SCHEDULE_FILL_ON_CREATE_MS', 10_000, { min: 0, max: 25_000 }, env),
  };
}

export function readSchedulerConfig(env: Env = process.env): SchedulerConfig {
  return {
    horizonMs: readInt('SCHEDULE_HORIZON_HOURS', 6, { min: 1, max: 168 }, env) * 3600_000,
    fetchTimeoutMs: readInt('SCHEDULE_FETCH_TIMEOUT_MS', 5000, { min: 100, max: 60_000 }, env),
    feedMaxBytes: readInt('SCHEDULE_FEED_MAX_BYTES', 1024 * 1024, { min: 1024, max: 16 * 1024 * 1024 }, env),
    playlistMaxBytes: readInt(
      'SCHEDULE_PLAYLIST_MAX_BYTES',
      2 * 1024 * 1024,
      { min: 1024, max: 16 * 1024 * 1024 },
      env,
    ),
    feedMaxEntries: readInt('SCHEDULE_FEED_MAX_ENTRIES', 500, { min: 1, max: 1000 }, env),
    allowPrivateUrls: allowPrivateUrlsFromEnv(env),
    concurrency: readInt('SCHEDULE_CONCURRENCY', 4, { min: 1, max: 32 }, env),
  };
}
