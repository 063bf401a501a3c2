/**
 * Decides what a channel plays next: asks the asset manager (with a deadline), loads the VOD (shared
 * cache), adds a preroll when asked, and on any failure falls back to the slate (or, without a
 * loadable slate, the synthetic gap) and reports the error. A preroll delivered as an interstitial
 * is no item: the VOD's item names it (render/interstitial.ts). It never throws: the stream never stops.
 */
import type { Logger } from '../../../core/logger';
import { withTimeout } from '../../../core/timeout';
import type { EngineConfig } from '../config';
import type { EngineEvents } from '../events';
import type { Metrics } from '../metrics';
import { adBreakItems } from '../playout/ad-break-plan';
import { loopDraft, type VodPlan, vodDraft } from '../playout/drafts';
import type { InterstitialAd, ItemDraft, ResumePoint } from '../playout/item';
import {
  type Channel,
  type ChannelMedia,
  changesAhead,
  type IAssetManager,
  type Preroll,
  reportsChanges,
  type ScheduleEvent,
  type VodRequest,
  type VodResponse,
} from '../types';
import { type ParsedVod, referenceTrack } from '../vod/parsed-vod';
import { gapUri } from '../vod/synthetic-gap';
import type { VodCache } from '../vod/vod-cache';

export interface PlannerDeps {
  config: EngineConfig;
  assetManager: IAssetManager;
  vods: VodCache;
  events: EngineEvents;
  metrics: Metrics;
  log: Logger;
}

/** A VOD a channel's ladder can be built from, with the media shape its answer carried. */
export interface LadderSource {
  vod: ParsedVod;
  /** The media shape the asset manager answered with (used when the channel declares none). */
  media?: ChannelMedia;
}

/**
 * What the asset manager knows of a channel's content before its first item: 'unknown' when it does
 * not look ahead (the first item decides), else the first VOD, loaded, or undefined while none is known.
 */
export type Upcoming = LadderSource | undefined | 'unknown';

export interface PlannedItem {
  draft: ItemDraft;
  vod: ParsedVod;
  /** The media shape the asset manager answered with (used when the channel declares none). */
  media?: ChannelMedia;
}

export interface PlanContext {
  channel: Channel;
  startMs: number;
  /** The channel's target duration; undefined before its first item (then any VOD fits). */
  targetDurationS?: number;
  /** Start of the next scheduled event: the VOD is truncated to end there. */
  untilMs?: number;
  /** What a LIVE event that just ended cut into: played instead of asking, when the asset manager says so. */
  resume?: readonly ResumePoint[];
}

export class AssetError extends Error {
  override name = 'AssetError';
}

export function fitsTargetDuration(vod: ParsedVod, targetDurationS: number | undefined): boolean {
  return targetDurationS === undefined || Math.round(vod.maxSegmentMs / 1000) <= targetDurationS;
}

const interstitialAd = ({ uri, durationMs }: Preroll): InterstitialAd => ({
  uri,
  ...(durationMs ? { durationMs } : {}),
});

export class Planner {
  constructor(private readonly deps: PlannerDeps) {}

  /** The VOD, loaded, if it fits the channel; at once (no frame, no await) when it is in the cache. */
  private loadFitting(uri: string, ctx: PlanContext): ParsedVod | Promise<ParsedVod> {
    const cached = this.deps.vods.get(uri);
    if (cached) return this.fitting(uri, cached, ctx);
    return this.deps.vods.load(uri).then((vod) => this.fitting(uri, vod, ctx));
  }

  private fitting(uri: string, vod: ParsedVod, ctx: PlanContext): ParsedVod {
    if (!fitsTargetDuration(vod, ctx.targetDurationS)) {
      const longest = (vod.maxSegmentMs / 1000).toFixed(3);
      throw new AssetError(
        `${uri} has ${longest} s segments, longer than the channel target duration ${ctx.targetDurationS} s`,
      );
    }
    return vod;
  }

  /** Reports a failed item: metric, log, vod_error event, and the asset manager's handleError. */
  report(channel: Channel, err: unknown, vodResponse?: VodResponse): void {
    const error = err instanceof Error ? err : new Error(String(err));
    const { metrics, events, log, assetManager } = this.deps;
    metrics.inc('VodErrors');
    log.warn('vod error', { channelId: channel.id, err: error, uri: vodResponse?.uri });
    events.emit(channel.id, 'vod_error', {
      message: error.message,
      code: (error as { code?: string }).code,
      vod: vodResponse,
    });
    Promise.resolve()
      .then(() => assetManager.handleError?.(error, vodResponse))
      .catch((e: unknown) => log.error('handleError threw', { channelId: channel.id, err: e }));
  }

  /** Whether the asset manager tells when content changes (types.ts reportsChanges). */
  get reportsChanges(): boolean {
    return reportsChanges(this.deps.assetManager);
  }

  /** Whether the channel's content may change after it was planned (IAssetManager.changesAhead). */
  changesAhead(channel: Channel): boolean {
    return changesAhead(this.deps.assetManager, { sessionId: channel.id, playlistId: channel.id });
  }

  private request(ctx: PlanContext): VodRequest {
    const category =
      typeof ctx.channel.options?.category === 'string' ? ctx.channel.options.category : undefined;
    return { sessionId: ctx.channel.id, category, playlistId: ctx.channel.id, startMs: ctx.startMs };
  }

  /**
   * The channel's first VOD from ctx.startMs on, however far ahead (IAssetManager.upcomingContent),
   * loaded. A failure (an error, a VOD that does not load) is reported and counts as nothing known.
   */
  async upcoming(ctx: PlanContext): Promise<Upcoming> {
    const { config, assetManager, vods } = this.deps;
    if (!assetManager.upcomingContent) return 'unknown';
    let response: VodResponse | undefined;
    try {
      const content = await withTimeout(
        assetManager.upcomingContent(this.request(ctx)),
        config.getNextVodTimeoutMs,
        'upcomingContent',
      );
      if (!content) return 'unknown';
      response = content.vod;
      if (!response) return undefined;
      if (!response.uri) throw new AssetError(`VodResponse ${response.id ?? '(no id)'} has no uri`);
      const vod = await vods.load(response.uri);
      return { vod, ...(response.media ? { media: response.media } : {}) };
    } catch (err) {
      this.report(ctx.channel, err, response);
      return undefined;
    }
  }

  /** The next item(s) from the asset manager: [preroll?, vod], or a slate on any failure. */
  async next(ctx: PlanContext): Promise<PlannedItem[]> {
    const { config, assetManager } = this.deps;
    if (ctx.resume?.length && assetManager.resumesAfterLive?.(this.request(ctx))) {
      const resumed = await this.resumed(ctx, ctx.resume);
      if (resumed.length) return resumed;
    }
    let response: VodResponse | undefined;
    try {
      response = await withTimeout(
        assetManager.getNextVod(this.request(ctx)),
        config.getNextVodTimeoutMs,
        'getNextVod',
      );
      if (!response || typeof response !== 'object')
        throw new AssetError('getNextVod returned no VodResponse');
      // Without a duration, a gap is the slate once (slateDuration only when the slate is not loaded).
      if (response.type === 'gap')
        return this.slate(
          ctx,
          'gap',
          response.desiredDuration === undefined
            ? { repetitions: 1 }
            : { durationMs: response.desiredDuration },
        );
      if (!response.uri) throw new AssetError(`VodResponse ${response.id ?? '(no id)'} has no uri`);
      const vod = await this.loadFitting(response.uri, ctx);
      const ad = response.preroll ?? ctx.channel.options?.preroll;
      // An interstitial preroll is the player's to fetch: no item of its own, nothing to load here.
      const interstitial = ad?.delivery === 'interstitial' && ad.uri ? interstitialAd(ad) : undefined;
      const preroll = interstitial || !ad?.uri ? undefined : await this.preroll(ctx, ad);
      const plan: VodPlan = {
        kind: 'vod',
        id: String(response.id ?? response.uri),
        title: String(response.title ?? ''),
        uri: response.uri,
        offsetMs: response.startOffset ?? (response.offset ?? 0) * 1000,
        desiredDurationMs: this.capped(ctx, response.desiredDuration, preroll),
        lateMs:
          response.diffMs ?? (response.unixTs !== undefined ? ctx.startMs - response.unixTs : undefined),
        diffCompensationRate: config.diffCompensationRate,
        timedMetadata: response.timedMetadata,
      };
      const media = response.media;
      if (response.adBreaks?.length) {
        const pieces = await this.withAdBreaks(ctx, vod, plan, response);
        if (interstitial && pieces[0] && !pieces[0].draft.interstitial)
          pieces[0].draft.interstitial = interstitial;
        const withMedia = pieces.map((p) => (media && p.vod === vod ? { ...p, media } : p));
        return [...(preroll ? [preroll] : []), ...withMedia];
      }
      const draft = vodDraft(referenceTrack(vod), plan);
      // Cut short for a coming event (capped): what it would have played, resumed after a LIVE one.
      if (ctx.untilMs !== undefined) {
        const full = vodDraft(referenceTrack(vod), { ...plan, desiredDurationMs: response.desiredDuration });
        if (full.durationMs > draft.durationMs) draft.fullDurationMs = full.durationMs;
      }
      if (interstitial) draft.interstitial = interstitial;
      return [...(preroll ? [preroll] : []), { draft, vod, ...(media ? { media } : {}) }];
    } catch (err) {
      this.report(ctx.channel, err, response);
      return this.slate(ctx, (err as Error)?.message ?? 'error', { repetitions: config.slateRepetitions });
    }
  }

  /** A VOD cut (spliced) or split (interstitials) at its ad breaks (ad-break-plan.ts). */
  private withAdBreaks(
    ctx: PlanContext,
    vod: ParsedVod,
    plan: VodPlan,
    response: VodResponse,
  ): Promise<PlannedItem[]> {
    const delivery = response.adDelivery ?? ctx.channel.options?.adDelivery ?? 'spliced';
    return adBreakItems(
      {
        load: async (uri) => this.loadFitting(uri, ctx),
        report: (err, failed) => this.report(ctx.channel, err, failed),
      },
      { vod, plan, breaks: response.adBreaks ?? [], delivery },
    );
  }

  /** The items a LIVE event cut into, from where it cut them (resume-after-live.ts), within ctx.untilMs. */
  private async resumed(ctx: PlanContext, points: readonly ResumePoint[]): Promise<PlannedItem[]> {
    const planned: PlannedItem[] = [];
    let roomMs = ctx.untilMs === undefined ? Number.POSITIVE_INFINITY : ctx.untilMs - ctx.startMs;
    for (const { durationMs, ...point } of points) {
      if (roomMs <= 0) break;
      try {
        const vod = await this.loadFitting(point.uri, ctx);
        const draft = vodDraft(referenceTrack(vod), {
          ...point,
          desiredDurationMs: Math.min(durationMs, roomMs),
        });
        roomMs -= draft.durationMs;
        planned.push({ draft, vod });
      } catch (err) {
        this.report(ctx.channel, err, { id: point.id, title: point.title, uri: point.uri });
      }
    }
    return planned;
  }

  private capped(ctx: PlanContext, desired: number | undefined, preroll?: PlannedItem): number | undefined {
    if (ctx.untilMs === undefined) return desired;
    const room = ctx.untilMs - ctx.startMs - (preroll?.draft.durationMs ?? 0);
    return Math.max(1, Math.min(desired ?? Number.POSITIVE_INFINITY, room));
  }

  private async preroll(ctx: PlanContext, preroll: Preroll | undefined): Promise<PlannedItem | undefined> {
    if (!preroll?.uri) return undefined;
    try {
      const vod = await this.loadFitting(preroll.uri, ctx);
      const plan = {
        kind: 'preroll',
        id: 'preroll',
        title: 'preroll',
        uri: preroll.uri,
        desiredDurationMs: preroll.durationMs,
      } as const;
      return { draft: vodDraft(referenceTrack(vod), plan), vod };
    } catch (err) {
      this.report(ctx.channel, err, { id: 'preroll', title: 'preroll', uri: preroll.uri });
      return undefined;
    }
  }

  /**
   * A scheduled VOD event (stream switch manager): plays for the asset's duration (else until end_time),
   * from where it should be by now when it starts late.
   */
  async event(ctx: PlanContext, event: ScheduleEvent): Promise<PlannedItem[]> {
    const offsetMs = Math.max(0, ctx.startMs - event.start_time);
    const durationMs = Math.max(1, (event.duration ?? event.end_time - event.start_time) - offsetMs);
    const vodResponse = { id: event.assetId, title: event.title, uri: event.uri };
    try {
      const vod = await this.loadFitting(event.uri, ctx);
      const plan = {
        kind: 'vod',
        ...vodResponse,
        offsetMs,
        desiredDurationMs: durationMs,
        eventId: event.eventId,
      } as const;
      return [{ draft: vodDraft(referenceTrack(vod), plan), vod }];
    } catch (err) {
      this.report(ctx.channel, err, vodResponse);
      const planned = await this.slate(ctx, (err as Error).message, { durationMs });
      for (const p of planned) p.draft.eventId = event.eventId;
      return planned;
    }
  }

  /** The channel's slate repeated (or filling a duration); the synthetic gap when no slate loads. */
  async slate(
    ctx: PlanContext,
    reason: string,
    fill: { durationMs: number } | { repetitions: number },
  ): Promise<PlannedItem[]> {
    const { config, vods, log, metrics, events } = this.deps;
    const slateUri = ctx.channel.slate ?? config.defaultSlateUri;
    if (slateUri) {
      try {
        const vod = await this.loadFitting(slateUri, ctx);
        const draft = loopDraft(
          referenceTrack(vod),
          { kind: 'slate', id: 'slate', title: 'slate', uri: slateUri, reason },
          fill,
        );
        metrics.inc('SlatesInserted');
        events.emit(ctx.channel.id, 'slate_inserted', {
          reason,
          uri: slateUri,
          durationMs: draft.durationMs,
        });
        return [{ draft, vod }];
      } catch (err) {
        log.error('slate cannot be loaded', { channelId: ctx.channel.id, uri: slateUri, err });
      }
    }
    // Before the first item there is no ladder or target duration to give a synthetic gap: wait.
    if (ctx.targetDurationS === undefined) return [];
    const segmentMs = Math.min(config.averageSegmentDuration, ctx.targetDurationS * 1000);
    const vod = await vods.load(gapUri(segmentMs));
    const durationMs = 'durationMs' in fill ? fill.durationMs : fill.repetitions * config.slateDuration;
    const base = { kind: 'gap', id: 'gap', title: 'gap', uri: vod.uri, reason } as const;
    events.emit(ctx.channel.id, 'slate_inserted', { reason, uri: null, durationMs });
    return [{ draft: loopDraft(referenceTrack(vod), base, { durationMs }), vod }];
  }
}
