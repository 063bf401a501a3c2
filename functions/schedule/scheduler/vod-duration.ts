/**
 * The duration of a VOD as the auto-scheduler books it: the sum of the EXTINF of its HLS (the first
 * variant when the URL is a master playlist), cached by URL so a feed that repeats a VOD, or a
 * scheduler run after the previous one, does not download the same playlists again.
 */
import { FetchError, type FetchTextOptions, fetchText } from '../../../core/fetch/bounded-fetch';
import { assertPlaylist, firstVariantUri, mediaPlaylistDurationMs } from '../planning/hls-playlist';

export interface DurationCache {
  get(url: string): number | undefined;
  set(url: string, durationMs: number): void;
}

export interface DurationCacheOptions {
  maxEntries?: number;
  /** VODs are immutable in principle; a TTL still lets a replaced asset be measured again. */
  ttlMs?: number;
  clock?: () => number;
}

/** A bounded LRU map (Map keeps insertion order: re-inserting on read makes it recency order). */
export function createDurationCache(options: DurationCacheOptions = {}): DurationCache {
  const { maxEntries = 5000, ttlMs = 6 * 3600_000, clock = Date.now } = options;
  const map = new Map<string, { durationMs: number; at: number }>();
  return {
    get(url) {
      const hit = map.get(url);
      if (!hit) return undefined;
      map.delete(url);
      if (clock() - hit.at > ttlMs) return undefined;
      map.set(url, hit);
      return hit.durationMs;
    },
    set(url, durationMs) {
      map.delete(url);
      map.set(url, { durationMs, at: clock() });
      while (map.size > maxEntries) map.delete(map.keys().next().value as string);
    },
  };
}

async function fetchPlaylist(url: string, options: FetchTextOptions): Promise<{ text: string; url: string }> {
  const res = await fetchText(url, options);
  if (res.status !== 200) throw new FetchError(`${url}: HTTP ${res.status}`, 'http_error', res.status);
  assertPlaylist(res.text);
  return res;
}

/** Downloads the playlist(s) of a VOD and returns its duration in milliseconds. */
export async function measureVodDurationMs(url: string, options: FetchTextOptions): Promise<number> {
  const top = await fetchPlaylist(url, options);
  const variant = firstVariantUri(top.text, top.url);
  const media = variant ? await fetchPlaylist(variant, options) : top;
  return mediaPlaylistDurationMs(media.text);
}

export type DurationResolver = (url: string) => Promise<number>;

/** Cached by URL; concurrent requests for one URL share a single measurement. Failures are not cached. */
export function cachedDurationResolver(cache: DurationCache, options: FetchTextOptions): DurationResolver {
  const inFlight = new Map<string, Promise<number>>();
  return async (url) => {
    const cached = cache.get(url);
    if (cached !== undefined) return cached;
    let pending = inFlight.get(url);
    if (!pending) {
      pending = measureVodDurationMs(url, options)
        .then((durationMs) => {
          cache.set(url, durationMs);
          return durationMs;
        })
        .finally(() => inFlight.delete(url));
      inFlight.set(url, pending);
    }
    return pending;
  };
}
