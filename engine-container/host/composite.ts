/**
 * One engine, several channel sources (the channel API's table, the schedule service): channels are
 * the union of the managers' lists, and each asset request goes to the source that owns the channel.
 * On an id clash the first source wins (and the clash is logged once).
 */
import { logger } from '../../core/logger';
import {
  type Channel,
  changesAhead,
  type IAssetManager,
  type IChannelManager,
  reportsChanges,
  type UpcomingContent,
  type VodRequest,
  type VodResponse,
} from '../src/types';

export interface ChannelSource {
  name: string;
  channels: IChannelManager;
  assets: IAssetManager;
}

export class CompositeSources implements IChannelManager, IAssetManager {
  private owner = new Map<string, ChannelSource>();
  private lastLists: Channel[][] = [];
  /** The union made from lastLists: answered again while every source answers its same list. */
  private lastUnion: Channel[] | undefined;
  private readonly clashes = new Set<string>();

  constructor(private readonly sources: readonly ChannelSource[]) {}

  async getChannels(): Promise<Channel[]> {
    const lists = await Promise.all(
      this.sources.map(async (s) => {
        try {
          return await s.channels.getChannels();
        } catch (err) {
          logger.warn('channel source failed; its channels are kept as last known', { source: s.name, err });
          return undefined;
        }
      }),
    );
    // Sources answer their same list while nothing changed: so does the union, and the engine then
    // visits none of its channels (EngineCore.syncChannels).
    if (this.lastUnion && lists.every((list, i) => list === undefined || list === this.lastLists[i]))
      return this.lastUnion;
    const owner = new Map<string, ChannelSource>();
    const out: Channel[] = [];
    lists.forEach((list, i) => {
      const source = this.sources[i]!;
      // A failed source keeps its previous channels rather than dropping them off air.
      const channels = list ?? this.lastLists[i] ?? [];
      this.lastLists[i] = channels;
      for (const channel of channels) {
        if (owner.has(channel.id)) {
          if (!this.clashes.has(channel.id))
            logger.warn('channel id served by two sources', { channelId: channel.id });
          this.clashes.add(channel.id);
          continue;
        }
        owner.set(channel.id, source);
        out.push(channel);
      }
    });
    this.owner = owner;
    this.lastUnion = out;
    return out;
  }

  /** The source that owns the channel (the first, for one no list has named yet). */
  private sourceOf(req: VodRequest): ChannelSource | undefined {
    return this.owner.get(req.sessionId) ?? this.sources[0];
  }

  getNextVod(req: VodRequest): Promise<VodResponse> {
    const source = this.sourceOf(req);
    if (!source) return Promise.reject(new Error('no channel source'));
    return source.assets.getNextVod(req);
  }

  /** The owning source's look-ahead; undefined (the first item decides) when it has none. */
  async upcomingContent(req: VodRequest): Promise<UpcomingContent | undefined> {
    const source = this.sourceOf(req);
    return source?.assets.upcomingContent?.(req);
  }

  /** The owning source's answer: channel-API channels resume after a live event, schedule channels ask. */
  resumesAfterLive(req: VodRequest): boolean {
    const source = this.sourceOf(req);
    return source?.assets.resumesAfterLive?.(req) ?? false;
  }

  /** The owning source's changes (a schedule edited); undefined when it tells none. */
  async contentChangedFrom(req: VodRequest): Promise<number | undefined> {
    const source = this.sourceOf(req);
    return source?.assets.contentChangedFrom?.(req);
  }

  /**
   * The channels whose changes the sources tell (IAssetManager.takeChangedChannels); undefined when a
   * source that reports changes cannot say which channels (the engine then asks every channel).
   */
  takeChangedChannels(): Set<string> | undefined {
    const ids = new Set<string>();
    for (const { assets } of this.sources) {
      if (!reportsChanges(assets)) continue;
      const taken = assets.takeChangedChannels?.();
      if (taken === undefined) return undefined;
      for (const id of taken) ids.add(id);
    }
    return ids;
  }

  /** A channel of a source that reports changes (a schedule) may change ahead; others do not. */
  changesAhead(req: VodRequest): boolean {
    const source = this.sourceOf(req);
    return source ? changesAhead(source.assets, req) : false;
  }

  handleError(err: Error, vodResponse?: VodResponse): void {
    logger.warn('channel item failed; slate inserted', {
      err: err.message,
      vod: vodResponse?.uri ?? vodResponse?.id,
    });
  }
}
