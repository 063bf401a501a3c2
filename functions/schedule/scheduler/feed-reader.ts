/**
 * One read of an auto-scheduler's feed: a conditional GET with the validators of the previous read
 * (304 -> the stored items are reused as they are), then each entry's VOD duration. Entries that
 * cannot be used (a field missing, a VOD that does not load) are skipped and logged; a feed that
 * cannot be read at all keeps its last good items, so the channel keeps being scheduled, and records
 * why as a public code (the detail is logged).
 */

import { FetchError, type FetchTextOptions, fetchText } from '../../../core/fetch/bounded-fetch';
import { publicFailure, publicFailureCode } from '../../../core/fetch/public-failure';
import type { Logger } from '../../../core/logger';
import { mapLimit } from '../../../core/map-limit';
import type { FeedFetchState, FeedItem, StoredFeed } from '../model';
import { FeedFormatError, parseAtomFeed } from '../planning/atom-feed';
import type { DurationResolver } from './vod-duration';

export interface FeedReaderDeps {
  fetchOptions: FetchTextOptions;
  resolveDuration: DurationResolver;
  nowMs: number;
  log: Logger;
  /** Feed entries beyond this are ignored (they bound the stored state and a run's work). */
  maxItems: number;
  /** Playlists measured at once. */
  concurrency?: number;
}

export interface FeedRead {
  state: FeedFetchState;
  /** 'not-modified' when the server answered 304, 'failed' when the stored items were kept. */
  outcome: 'fetched' | 'not-modified' | 'failed';
}

function conditionalHeaders(feed: StoredFeed): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/atom+xml, application/xml;q=0.9, */*;q=0.5',
  };
  // Validators are only worth sending when the items they stand for are still stored.
  if (!feed.items) return headers;
  if (feed.etag) headers['if-none-match'] = feed.etag;
  if (feed.lastModified) headers['if-modified-since'] = feed.lastModified;
  return headers;
}

async function measureItems(
  feed: StoredFeed,
  xml: string,
  url: string,
  deps: FeedReaderDeps,
): Promise<FeedItem[]> {
  const parsed = parseAtomFeed(xml, url);
  for (const s of parsed.skipped)
    deps.log.warn('feed entry skipped', { feedUrl: feed.url, index: s.index, reason: s.reason });
  if (parsed.entries.length > deps.maxItems) {
    deps.log.warn('feed entries beyond the limit ignored', {
      feedUrl: feed.url,
      entries: parsed.entries.length,
      limit: deps.maxItems,
    });
  }
  // The stored items double as a persistent duration cache across cold starts.
  const known = new Map((feed.items ?? []).map((item) => [item.url, item.durationMs]));
  const measured = await mapLimit(
    parsed.entries.slice(0, deps.maxItems),
    deps.concurrency ?? 4,
    async (entry) => {
      try {
        const durationMs = known.get(entry.link) ?? (await deps.resolveDuration(entry.link));
        return { id: entry.id, title: entry.title, url: entry.link, durationMs };
      } catch (err) {
        deps.log.warn('feed entry skipped', {
          feedUrl: feed.url,
          entryId: entry.id,
          url: entry.link,
          reason: (err as Error).message,
        });
        return undefined;
      }
    },
  );
  return measured.filter((item): item is FeedItem => item !== undefined && item.durationMs > 0);
}

export async function readFeed(feed: StoredFeed, deps: FeedReaderDeps): Promise<FeedRead> {
  const kept: FeedFetchState = { etag: feed.etag, lastModified: feed.lastModified, items: feed.items };
  try {
    const res = await fetchText(feed.url, { ...deps.fetchOptions, headers: conditionalHeaders(feed) });
    if (res.status === 304 && feed.items) {
      return { outcome: 'not-modified', state: { ...kept, fetchedAt: deps.nowMs } };
    }
    if (res.status !== 200)
      throw new FetchError(`feed answered HTTP ${res.status}`, 'http_error', res.status);
    const items = await measureItems(feed, res.text, res.url, deps);
    return {
      outcome: 'fetched',
      state: {
        etag: res.headers.get('etag') ?? undefined,
        lastModified: res.headers.get('last-modified') ?? undefined,
        items,
        fetchedAt: deps.nowMs,
      },
    };
  } catch (err) {
    deps.log.warn('feed read failed; keeping its last items', {
      feedUrl: feed.url,
      err: (err as Error).message,
    });
    // lastError is shown by the API: a code, never the fetch error's text (docs/security.md).
    const code = err instanceof FeedFormatError ? 'malformed' : publicFailureCode(err);
    return {
      outcome: 'failed',
      state: { ...kept, fetchedAt: deps.nowMs, lastError: publicFailure('the feed', code) },
    };
  }
}
