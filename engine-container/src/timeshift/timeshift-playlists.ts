/**
 * Start-over and catch-up (docs/timeshift.md): a channel's playlists from a moment within its retention,
 * `?start=` (an EVENT playlist from then, growing with the live edge) or `?start=&end=` (a VOD playlist
 * with EXT-X-ENDLIST once the range has aired), from the start of the programme on air at `start` with
 * `&from=programme`. Read from the shared playout log, which keeps items (never segments) for the
 * retention: each channel's history only as far back as asked (channel-history.ts).
 */
import { HttpError } from '../../../core/errors';
import type { EngineConfig } from '../config';
import type { ChannelRuntime } from '../engine-core';
import { renditionKeys } from '../ladder/output-ladder';
import type { PlayoutLogStore } from '../playout/log-store';
import { MissingVodError, type TrackResolver } from '../playout/window';
import type { VodCache } from '../vod/vod-cache';
import { ChannelHistory } from './channel-history';
import { HistoryCache } from './history-cache';
import { programmeStartMs } from './programme-start';
import { type RenditionsDeps, shiftedMedia } from './shifted-renditions';
import { type TimeshiftRange, timeshiftQuery, timeshiftRange } from './timeshift-range';

export interface TimeshiftDeps {
  config: EngineConfig;
  store: PlayoutLogStore;
  resolve: TrackResolver;
  vods: VodCache;
  /** The bound of the rendered histories (default TIMESHIFT_CACHE_BYTES). */
  cacheBytes?: number;
}

/**
 * The rendered histories' bound per engine: a day of 2 s segments is ~4.3 MB per rendition, so this
 * holds ~30 rendition-days of them (a day of 6 s segments is a third of that).
 */
export const TIMESHIFT_CACHE_BYTES = 128 * 1024 * 1024;

const channelStarting = () =>
  new HttpError(503, 'channel_starting', 'the channel has no content yet; retry shortly');

/** Adds the window's query to every URI of a master playlist (variant lines and `URI="…"` attributes). */
export function shiftMaster(master: string, range: TimeshiftRange): string {
  const query = timeshiftQuery(range);
  const withQuery = (uri: string) => `${uri}${uri.includes('?') ? '&' : '?'}${query}`;
  return master
    .split('\n')
    .map((line) => {
      if (line === '') return line;
      if (!line.startsWith('#')) return withQuery(line);
      return line.replace(/URI="([^"]*)"/g, (_m, uri: string) => `URI="${withQuery(uri)}"`);
    })
    .join('\n');
}

export class TimeshiftPlaylists {
  private readonly histories = new Map<string, ChannelHistory>();
  /** Every rendition's rendered history, for all requests (shifted-renditions.ts). */
  private readonly renditions: RenditionsDeps;

  constructor(private readonly deps: TimeshiftDeps) {
    const { config, resolve, vods } = deps;
    this.renditions = {
      resolve,
      clock: config.clock,
      retentionMs: config.timeshiftRetentionMs,
      cache: new HistoryCache(deps.cacheBytes ?? TIMESHIFT_CACHE_BYTES),
      // Most are in the cache; old ones may have been evicted.
      loadVods: async (items) => {
        const uris = new Set(items.filter((i) => i.kind !== 'live').map((i) => i.uri));
        await Promise.all([...uris].map((uri) => vods.load(uri).catch(() => undefined)));
      },
    };
  }

  /** What the rendered histories hold, and their bound (the benchmark prints them). */
  get cache(): HistoryCache {
    return this.renditions.cache;
  }

  /** The request's window, or undefined for the live playlists (no `start`). */
  range(params: URLSearchParams): TimeshiftRange | undefined {
    const { clock, timeshiftRetentionMs } = this.deps.config;
    return timeshiftRange(params, clock(), timeshiftRetentionMs);
  }

  async master(runtime: ChannelRuntime, range: TimeshiftRange, filter?: string): Promise<string> {
    return shiftMaster(await runtime.playlists.master(filter), range);
  }

  async media(runtime: ChannelRuntime, key: string, range: TimeshiftRange): Promise<string> {
    const header = runtime.playout.header;
    if (!header) throw channelStarting();
    if (!renditionKeys(header.ladder).includes(key))
      throw new HttpError(404, 'rendition_not_found', `no rendition ${key} on this channel`);
    const { items, fromMs, read, history } = await this.itemsFrom(runtime, range);
    const request = {
      channelId: runtime.playout.channel.id,
      key,
      items,
      fromMs,
      ...(range.toMs === undefined ? {} : { toMs: range.toMs }),
      read,
      generation: () => history.generation,
    };
    for (let attempt = 0; ; attempt++) {
      try {
        return await shiftedMedia(this.renditions, request);
      } catch (err) {
        if (!(err instanceof MissingVodError) || attempt >= 3) throw err;
        await this.deps.vods.load(err.uri).catch(() => {
          throw new HttpError(503, 'vod_unavailable', 'a VOD of this channel cannot be loaded here');
        });
      }
    }
  }

  /**
   * The channel's log from the item before the one on air at the range's start (with `from=programme`:
   * at the start of the programme on air then), and that start.
   */
  private async itemsFrom(runtime: ChannelRuntime, range: TimeshiftRange) {
    const { config, store } = this.deps;
    const id = runtime.playout.channel.id;
    let history = this.histories.get(id);
    if (!history) {
      history = new ChannelHistory(id, {
        store,
        clock: config.clock,
        retentionMs: config.timeshiftRetentionMs,
        maxAgeMs: config.sharedLogMaxAgeMs,
      });
      this.histories.set(id, history);
    }
    const anchor = runtime.playout.tail.items[0]?.seq;
    const read = (fromMs: number) =>
      history.itemsFrom(fromMs, anchor).catch(() => {
        // A store that cannot be read now (Redis or DynamoDB down) asks for a retry. Its error (which
        // may name its host) is not answered, nor logged per request: the channel's playout logs the
        // outage (rate-limited), and the engine's error log counts these 503s.
        throw new HttpError(503, 'store_unavailable', 'the playout log cannot be read now; retry shortly');
      });
    const items = await read(range.fromMs);
    const startMs = range.programme ? (programmeStartMs(items, range.fromMs) ?? range.fromMs) : range.fromMs;
    if (startMs >= range.fromMs) return { items, fromMs: range.fromMs, read, history };
    // The items from the programme's start (a LIVE event's switch-in may be older than those read).
    return { items: await read(startMs), fromMs: startMs, read, history };
  }

  /** Forgets a channel's history (the channel was removed). */
  forget(channelId: string): void {
    this.histories.delete(channelId);
    this.renditions.cache.forget(channelId);
  }
}
