/**
 * Start-over and catch-up (docs/timeshift.md): a channel's playlists from a moment within its retention,
 * `?start=` (an EVENT playlist from then, growing with the live edge) or `?start=&end=` (a VOD playlist
 * with EXT-X-ENDLIST once the range has aired). Read from the shared playout log, which keeps items
 * (never segments) for the retention: each channel's history is read once and then from its last seq.
 */
import { HttpError } from '../../../core/errors';
import type { EngineConfig } from '../config';
import type { ChannelRuntime } from '../engine-core';
import { renditionKeys } from '../ladder/output-ladder';
import { itemEndMs, type PlayoutItem } from '../playout/item';
import type { PlayoutLogStore } from '../playout/log-store';
import { MissingVodError, type TrackResolver } from '../playout/window';
import { renderMediaPlaylist } from '../render/media-playlist';
import type { VodCache } from '../vod/vod-cache';
import { type TimeshiftRange, timeshiftQuery, timeshiftRange } from './timeshift-range';
import { computeTimeshiftWindow } from './timeshift-window';

export interface TimeshiftDeps {
  config: EngineConfig;
  store: PlayoutLogStore;
  resolve: TrackResolver;
  vods: VodCache;
}

interface History {
  items: PlayoutItem[];
  readAtMs: number;
  reading?: Promise<void>;
}

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
  private readonly histories = new Map<string, History>();

  constructor(private readonly deps: TimeshiftDeps) {}

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
    const items = await this.itemsFrom(runtime.playout.channel.id, range.fromMs);
    const { resolve, vods, config } = this.deps;
    // The range's VODs, loaded at once (most are in the cache; old ones may have been evicted).
    const uris = new Set(items.filter((i) => i.kind !== 'live').map((i) => i.uri));
    await Promise.all([...uris].map((uri) => vods.load(uri).catch(() => undefined)));
    for (let attempt = 0; ; attempt++) {
      try {
        const toMs = range.toMs ?? Number.POSITIVE_INFINITY;
        const win = computeTimeshiftWindow(items, resolve, key, range.fromMs, toMs, config.clock());
        const ended = range.toMs !== undefined && win.complete;
        const head = `#EXT-X-PLAYLIST-TYPE:${ended ? 'VOD' : 'EVENT'}\n#EXT-X-START:TIME-OFFSET=0,PRECISE=YES\n`;
        const body = renderMediaPlaylist(win).replace(/^(#EXTM3U\n#EXT-X-VERSION:\d+\n)/, `$1${head}`);
        return ended ? `${body}#EXT-X-ENDLIST\n` : body;
      } catch (err) {
        if (!(err instanceof MissingVodError) || attempt >= 3) throw err;
        await vods.load(err.uri).catch(() => {
          throw new HttpError(503, 'vod_unavailable', 'a VOD of this channel cannot be loaded here');
        });
      }
    }
  }

  /** The channel's log from the item before the one on air at fromMs, to its end. */
  private async itemsFrom(channelId: string, fromMs: number): Promise<PlayoutItem[]> {
    const history = await this.history(channelId);
    const first = history.items.findIndex((i) => itemEndMs(i) > fromMs);
    return first < 0 ? [] : history.items.slice(Math.max(0, first - 1));
  }

  private async history(channelId: string): Promise<History> {
    const { config, store } = this.deps;
    let history = this.histories.get(channelId);
    if (!history) {
      history = { items: [], readAtMs: Number.NEGATIVE_INFINITY };
      this.histories.set(channelId, history);
    }
    const h = history;
    if (config.clock() - h.readAtMs >= config.sharedLogMaxAgeMs) {
      h.reading ??= (async () => {
        const last = h.items[h.items.length - 1];
        const newer = await store.read(channelId, last ? last.seq + 1 : 0);
        const horizon = config.clock() - config.timeshiftRetentionMs;
        const kept = h.items.concat(newer);
        const drop = kept.findIndex((i) => itemEndMs(i) > horizon);
        h.items = drop <= 0 ? kept : kept.slice(drop - 1);
        h.readAtMs = config.clock();
      })().finally(() => {
        h.reading = undefined;
      });
      await h.reading;
    }
    return h;
  }

  /** Forgets a channel's history (the channel was removed). */
  forget(channelId: string): void {
    this.histories.delete(channelId);
  }
}
