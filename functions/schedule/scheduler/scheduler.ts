/**
 * The auto-scheduler: for every feed, read it (conditionally), extend its channel's schedule to the
 * horizon and drop the entries past retention. `runScheduler` is one pass (the Lambda behind the
 * EventBridge rule runs exactly that); `startScheduler` repeats it on a timer for the local runner.
 */

import type { FetchTextOptions } from '../../../core/fetch/bounded-fetch';
import type { Logger } from '../../../core/logger';
import { mapLimit } from '../../../core/map-limit';
import { planSchedule } from '../planning/plan-schedule';
import type { EntryStore } from '../stores/entry-store';
import type { FeedKey, FeedStore } from '../stores/feed-store';
import { readFeed } from './feed-reader';
import type { DurationResolver } from './vod-duration';

export interface SchedulerDeps {
  feeds: FeedStore;
  entries: EntryStore;
  /** How feeds are fetched (timeout, size bound, URL guard, fetch). */
  feedFetch: FetchTextOptions;
  resolveDuration: DurationResolver;
  horizonMs: number;
  feedMaxEntries: number;
  /** Feeds processed at once. */
  concurrency: number;
  clock: () => number;
  newId: () => string;
  log: Logger;
}

export interface FeedRunResult {
  tenant: string;
  feedId: string;
  /** What happened to the schedule. */
  outcome: 'scheduled' | 'full' | 'conflict' | 'no-items' | 'no-channel' | 'gone' | 'error';
  read?: 'fetched' | 'not-modified' | 'failed';
  added: number;
  expired: number;
}

const HOUR_MS = 3600_000;

/** One feed: read it, extend its channel's schedule, apply retention. Never throws. */
export async function runFeed(key: FeedKey, deps: SchedulerDeps): Promise<FeedRunResult> {
  const result: FeedRunResult = { tenant: key.tenant, feedId: key.id, outcome: 'gone', added: 0, expired: 0 };
  const log = deps.log.child({ tenant: key.tenant, feedId: key.id });
  try {
    const feed = await deps.feeds.get(key.tenant, key.id);
    if (!feed) return result;
    const read = await readFeed(feed, {
      fetchOptions: deps.feedFetch,
      resolveDuration: deps.resolveDuration,
      nowMs: deps.clock(),
      log,
      maxItems: deps.feedMaxEntries,
    });
    result.read = read.outcome;
    if (!(await deps.feeds.saveFetchState(key.tenant, key.id, read.state))) return result;

    const { channelExists, cursor } = await deps.entries.readCursor(key.tenant, feed.channelId);
    if (!channelExists) {
      log.warn('auto-scheduler bound to a missing channel', { channelId: feed.channelId });
      return { ...result, outcome: 'no-channel' };
    }
    const nowMs = deps.clock();
    const items = read.state.items ?? [];
    const manual = await deps.entries.listManual(key.tenant, feed.channelId, cursor?.endTime ?? nowMs);
    const plan = planSchedule({
      channelId: feed.channelId,
      cursor,
      items,
      nowMs,
      horizonMs: deps.horizonMs,
      newId: deps.newId,
      manual,
    });
    if (plan.planned.length > 0) {
      const written = await deps.entries.append(key.tenant, feed.channelId, cursor?.endTime, plan.planned);
      if (written === 'conflict') {
        // Another run extended this schedule first: its entries stand, ours are dropped.
        log.info('schedule extended concurrently; this run stops', { channelId: feed.channelId });
        result.outcome = 'conflict';
      } else {
        result.outcome = 'scheduled';
        result.added = plan.planned.length;
      }
    } else {
      result.outcome = items.length === 0 ? 'no-items' : 'full';
    }
    const cutoff = nowMs - feed.config.scheduleRetention * HOUR_MS;
    result.expired = await deps.entries.deleteEndedBefore(key.tenant, feed.channelId, cutoff);
    log.info('auto-scheduler run', { ...result, channelId: feed.channelId });
    return result;
  } catch (err) {
    log.error('auto-scheduler run failed', { err });
    return { ...result, outcome: 'error' };
  }
}

/** One pass over every feed of every tenant. */
export async function runScheduler(deps: SchedulerDeps): Promise<FeedRunResult[]> {
  const feeds = await deps.feeds.listAll();
  return mapLimit(feeds, deps.concurrency, (key) => runFeed(key, deps));
}
