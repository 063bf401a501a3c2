/**
 * Serving a channel's playlists. The request path only computes a window over the in-memory log tail
 * (O(window)) or returns the cached body; it waits for I/O only in rare cases (a channel that is not
 * on air yet, a VOD appended by another instance and not yet parsed here).
 */
import { badRequest, HttpError } from '../../../core/errors';
import type { EngineConfig } from '../config';
import { type OutputLadder, renditionKeys } from '../ladder/output-ladder';
import type { Metrics } from '../metrics';
import type { ChannelHeader } from '../playout/append';
import { computeWindow, MissingVodError, type TrackResolver } from '../playout/window';
import { applyFilter, FilterError, parseFilter } from '../render/filter';
import { renderMasterPlaylist } from '../render/master-playlist';
import type { Channel } from '../types';
import type { VodCache } from '../vod/vod-cache';
import type { ChannelPlayout } from './channel-playout';
import { PlaylistCache, type RenderedPlaylist } from './playlist-cache';

export interface PlaylistDeps {
  config: EngineConfig;
  vods: VodCache;
  resolve: TrackResolver;
  metrics: Metrics;
}

const MAX_CACHED_MASTERS = 16;
const keySets = new WeakMap<OutputLadder, Set<string>>();

function keysOf(ladder: OutputLadder): Set<string> {
  let keys = keySets.get(ladder);
  if (!keys) {
    keys = new Set(renditionKeys(ladder));
    keySets.set(ladder, keys);
  }
  return keys;
}

/**
 * How long a live media playlist may be cached (`cache-control: max-age`, whole seconds): cacheTTL, but
 * never more than half the target duration. A player reloads every target duration; a copy cached
 * longer answers some of those reloads with the old window, so new segments arrive two at a time and
 * the player's buffer runs down to one segment before each refill, where any hiccup is a stall
 * (hls.js on a 2 s channel with max-age=4: appends in pairs every 4 s, 2 s left before each).
 */
export const mediaMaxAgeS = (cacheTTL: number, targetDurationS: number): number =>
  Math.min(cacheTTL, Math.floor(targetDurationS / 2));

const renditionNotFound = (key: string): HttpError =>
  new HttpError(404, 'rendition_not_found', `no rendition ${key} on this channel`);

export const channelStarting = (): HttpError =>
  new HttpError(503, 'channel_starting', 'the channel has no content yet; retry shortly');

export class ChannelPlaylists {
  private readonly media = new PlaylistCache();
  private readonly masters = new Map<string, string>();
  private mastersOf: { channel: Channel; ladder: OutputLadder } | undefined;

  constructor(
    private readonly playout: ChannelPlayout,
    private readonly deps: PlaylistDeps,
  ) {}

  /**
   * The channel's header once it is on air (its log has covered the present). Before that a request
   * waits for it, as long as planning the first items may take, then answers 503 channel_starting.
   */
  private async onAirHeader(): Promise<ChannelHeader> {
    const { getNextVodTimeoutMs, vodLoadTimeoutMs } = this.deps.config;
    const onAir = await this.playout.whenOnAir(getNextVodTimeoutMs + vodLoadTimeoutMs);
    const header = this.playout.header;
    if (!onAir || !header) throw channelStarting();
    return header;
  }

  async master(filter?: string): Promise<string> {
    this.deps.metrics.inc('MasterRequests');
    const header = await this.onAirHeader();
    const { channel } = this.playout;
    if (this.mastersOf?.channel !== channel || this.mastersOf.ladder !== header.ladder) {
      this.masters.clear();
      this.mastersOf = { channel, ladder: header.ladder };
    }
    // `?filter=` (empty) is a malformed filter, not "no filter": it must never share the unfiltered
    // master's cache entry, or its answer would depend on what was asked before (200 vs 400).
    const cacheKey = filter === undefined ? '' : `filter:${filter}`;
    const cached = this.masters.get(cacheKey);
    if (cached) return cached;
    const variantIndexes = filter === undefined ? undefined : this.filtered(header.ladder, filter);
    const body = renderMasterPlaylist(channel, header.ladder, {
      noSessionDataTags: this.deps.config.noSessionDataTags,
      variantIndexes,
    });
    if (this.masters.size >= MAX_CACHED_MASTERS) this.masters.clear();
    this.masters.set(cacheKey, body);
    return body;
  }

  private filtered(ladder: OutputLadder, filter: string): number[] {
    let indexes: number[];
    try {
      indexes = applyFilter(ladder.variants, parseFilter(filter));
    } catch (err) {
      if (err instanceof FilterError) throw badRequest(`invalid filter: ${err.message}`, 'filter');
      throw err;
    }
    if (indexes.length === 0)
      throw new HttpError(400, 'filter_matches_nothing', 'the filter removes every variant', {
        field: 'filter',
      });
    return indexes;
  }

  /** `max-age` of this channel's media playlists (mediaMaxAgeS); asked after mediaPlaylist answered. */
  mediaMaxAgeS(): number {
    // The log's last item, not `header` (an object made per call): asked on every request.
    const last = this.playout.tail.last;
    return last ? mediaMaxAgeS(this.deps.config.cacheTTL, last.targetDurationS) : 0;
  }

  /**
   * The rendition's playlist when it is answered without waiting: the channel is on air and the body
   * cached for its log's version is still current (most requests), or it renders now from VODs loaded
   * here. Undefined otherwise (not on air yet, a VOD to load): then renderedMediaPlaylist() answers. Saves the
   * request the promises of the waiting path, on a render too (at 10,000 channels, most requests).
   */
  readyMediaPlaylist(key: string): RenderedPlaylist | undefined {
    const last = this.playout.tail.last;
    if (!last || !this.playout.isOnAir()) return undefined;
    if (!keysOf(last.ladder).has(key)) {
      this.deps.metrics.inc('PlaylistRequests');
      throw renditionNotFound(key);
    }
    let playlist: RenderedPlaylist;
    try {
      playlist = this.current(key, this.deps.config.clock());
    } catch (err) {
      if (err instanceof MissingVodError) return undefined;
      throw err;
    }
    this.deps.metrics.inc('PlaylistRequests');
    this.followSharedLog();
    return playlist;
  }

  /** Other instances' appends (HA) show up within sharedLogMaxAgeMs; a request does not wait for them. */
  private followSharedLog(): void {
    const tail = this.playout.tail;
    if (tail.isStale(this.deps.config.sharedLogMaxAgeMs)) tail.refresh().catch(() => undefined);
  }

  /**
   * The rendition's playlist text, waiting as renderedMediaPlaylist does. The text is read before any
   * other render can run, so the bytes need no keeping: the rendition keeps writing into its block.
   */
  mediaPlaylist(key: string): Promise<string> {
    return this.awaitRendered(key, (playlist) => playlist.body);
  }

  /** A response still holds the rendition's last bytes (server/prepared-playlists.ts): keep them as they are. */
  bytesHeld(key: string): void {
    this.media.rendererOf(key).arena.release();
  }

  /**
   * The rendition's playlist, waiting for the channel to be on air and for VODs to load here. Its bytes
   * are the caller's for as long as it likes (its continuation runs after other requests' renders): no
   * later render writes over them (render/render-arena.ts).
   */
  renderedMediaPlaylist(key: string): Promise<RenderedPlaylist> {
    return this.awaitRendered(key, (playlist) => {
      this.bytesHeld(key);
      return playlist;
    });
  }

  /** Waits for the channel to be on air and its VODs loaded here, and hands the render to `take` at once. */
  private async awaitRendered<T>(key: string, take: (playlist: RenderedPlaylist) => T): Promise<T> {
    const { config, metrics, vods } = this.deps;
    metrics.inc('PlaylistRequests');
    const header = await this.onAirHeader();
    if (!keysOf(header.ladder).has(key)) throw renditionNotFound(key);
    this.followSharedLog();
    const now = config.clock();
    for (let attempt = 0; ; attempt++) {
      try {
        return take(this.current(key, now));
      } catch (err) {
        if (!(err instanceof MissingVodError) || attempt >= 3) throw err;
        await vods.load(err.uri).catch(() => {
          // A public answer: the VOD's URL stays out of it (docs/security.md).
          throw new HttpError(503, 'vod_unavailable', 'a VOD of this channel cannot be loaded here');
        });
      }
    }
  }

  /** The playlist cached for the log's version and the clock, or rendered now (throws MissingVodError). */
  private current(key: string, nowMs: number): RenderedPlaylist {
    const { config, resolve } = this.deps;
    const { version, items } = this.playout.tail;
    const cached = this.media.get(key, version, nowMs);
    if (cached) return cached;
    const win = computeWindow(items, resolve, key, nowMs, config.playlistWindowMs);
    const bytes = this.media.rendererOf(key).render(win);
    return this.media.set(key, version, nowMs, win.nextChangeMs, bytes);
  }
}
