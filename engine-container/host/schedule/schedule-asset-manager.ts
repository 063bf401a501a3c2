/**
 * The engine's asset manager for scheduled channels: each getNextVod answers what the schedule has
 * on air where the channel's playout continues, so the stream follows the schedule by the wall clock.
 *
 * Where playout continues: the onair engine passes `startMs` (when the next item starts) in the
 * request; for another engine that does not, the manager remembers, per channel, where the item it returned last ends on the
 * schedule, and uses that while it is plausible (from 10 s ago to 5 min ahead), else now. The engine
 * rounds items to whole segments, so it runs a little behind the remembered instant; `unixTs` on every
 * answer lets it measure and absorb that lateness.
 *
 * A fetched window of the schedule is reused while the channel's schedule version (schedule-watch.ts)
 * is the one it was fetched at and it covers what is asked: a schedule is read again only when it
 * changed or playout nears the window's end, never on a timer (so an idle channel, even one playing
 * gaps, costs no reads). Without a known version (a channel not listed yet) the window is reused for
 * `refreshMs` and only while it has entries ahead, as a version cannot tell it is current.
 *
 * An edit may concern what the engine has already planned (its look-ahead, about three target
 * durations): every scheduleRefreshIntervalMs the engine asks contentChangedFrom of the channels this
 * manager says changed (takeChangedChannels: a version moved, or a window read again found a change),
 * and a channel whose version moved has its window read again then and compared with the one it
 * replaces (schedule-diff.ts), so the engine cuts the change in (channel/cuts.ts).
 */

import type { Logger } from '../../../core/logger';
import { parsePlaybackChannelId } from '../../../functions/schedule/playback-id';
import type { IAssetManager, UpcomingContent, VodRequest, VodResponse } from '../../src/index';
import { DEFAULT_ON_AIR_OPTIONS, nextVodEntry, type OnAirOptions, onAirAt } from './on-air';
import type { ScheduleEntry, ScheduleSource } from './schedule-client';
import { firstChangeMs } from './schedule-diff';

export interface ScheduleAssetManagerOptions {
  source: ScheduleSource;
  /** The channel's schedule version as last listed; undefined when unknown. */
  scheduleVersion?: (engineId: string) => number | undefined;
  /** The channels whose schedule version moved since the last call (ScheduleWatch.takeChangedSchedules). */
  takeChangedSchedules?: () => Iterable<string>;
  log: Logger;
  clock?: () => number;
  /** How much schedule is fetched ahead of the playout instant. */
  windowMs?: number;
  /** Without a known version, a fetched window is reused for this long. */
  refreshMs?: number;
  onAir?: OnAirOptions;
}

const PAST_TOLERANCE_MS = 10_000;
const MAX_LEAD_MS = 5 * 60_000;

interface CachedWindow {
  fetchedAt: number;
  version: number | undefined;
  fromMs: number;
  toMs: number;
  entries: ScheduleEntry[];
}

export class ScheduleAssetManager implements IAssetManager {
  private readonly continuesAt = new Map<string, number>();
  private readonly windows = new Map<string, CachedWindow>();
  /** A fetch in flight per channel: the engine's retries of a slow first item wait for it, not refetch. */
  private readonly fetching = new Map<string, Promise<unknown>>();
  /** Per channel, from when its schedule changed since the engine last asked contentChangedFrom. */
  private readonly changedFrom = new Map<string, number>();
  private readonly clock: () => number;
  private readonly windowMs: number;
  private readonly refreshMs: number;

  constructor(private readonly options: ScheduleAssetManagerOptions) {
    this.clock = options.clock ?? Date.now;
    this.windowMs = options.windowMs ?? 3 * 3600_000;
    this.refreshMs = options.refreshMs ?? 30_000;
  }

  /** The schedule instant the next item of a channel starts at. */
  playoutInstant(channelId: string, hintedStartMs?: number): number {
    if (hintedStartMs !== undefined) return hintedStartMs;
    const now = this.clock();
    const remembered = this.continuesAt.get(channelId);
    if (
      remembered !== undefined &&
      remembered >= now - PAST_TOLERANCE_MS &&
      remembered <= now + MAX_LEAD_MS
    ) {
      return remembered;
    }
    return now;
  }

  private async entriesAround(channelId: string, tMs: number, waited = false): Promise<ScheduleEntry[]> {
    const now = this.clock();
    const cached = this.windows.get(channelId);
    const needTo = tMs + this.windowMs / 2;
    const version = this.options.scheduleVersion?.(channelId);
    if (cached && cached.fromMs <= tMs && cached.toMs >= needTo) {
      // Without a version, a window with nothing from t on is fetched again at once: the schedule
      // may just have been filled.
      const current =
        version === undefined
          ? cached.entries.some((e) => e.end_time > tMs) && now - cached.fetchedAt < this.refreshMs
          : cached.version === version;
      if (current) return cached.entries;
    }
    const pending = this.fetching.get(channelId);
    if (pending && !waited) {
      await pending.catch(() => undefined);
      return this.entriesAround(channelId, tMs, true);
    }
    const fetched = this.fetchWindow(channelId, tMs, now, version);
    this.fetching.set(channelId, fetched);
    try {
      return await fetched;
    } finally {
      if (this.fetching.get(channelId) === fetched) this.fetching.delete(channelId);
    }
  }

  private async fetchWindow(
    channelId: string,
    tMs: number,
    now: number,
    version: number | undefined,
  ): Promise<ScheduleEntry[]> {
    const fromMs = tMs - 60_000;
    const toMs = tMs + this.windowMs;
    // An engine id `<tenantKey>~<id>` names its tenant; any other id is read as the API's own tenant.
    const named = parsePlaybackChannelId(channelId);
    const entries = named
      ? await this.options.source.schedule(named.id, fromMs, toMs, named.tenant)
      : await this.options.source.schedule(channelId, fromMs, toMs);
    const before = this.windows.get(channelId);
    this.windows.set(channelId, { fetchedAt: now, version, fromMs, toMs, entries });
    const changed =
      before &&
      firstChangeMs(before.entries, entries, Math.max(before.fromMs, fromMs), Math.min(before.toMs, toMs));
    if (changed !== undefined)
      this.changedFrom.set(channelId, Math.min(this.changedFrom.get(channelId) ?? changed, changed));
    return entries;
  }

  async getNextVod(req: VodRequest): Promise<VodResponse> {
    const channelId = req.playlistId ?? req.sessionId;
    const tMs = this.playoutInstant(channelId, req.startMs);
    const entries = await this.entriesAround(channelId, tMs);
    const { response, endsAtMs } = onAirAt(entries, tMs, this.options.onAir ?? DEFAULT_ON_AIR_OPTIONS);
    this.continuesAt.set(channelId, endsAtMs);
    return response;
  }

  /**
   * The channel's first VOD entry from the playout instant on, within the fetched window (3 h by
   * default), however far ahead: the engine builds the channel's ladder from it rather than from the
   * slate playing until it starts; `{}` while none is scheduled (the channel waits off air).
   */
  async upcomingContent(req: VodRequest): Promise<UpcomingContent> {
    const channelId = req.playlistId ?? req.sessionId;
    const tMs = this.playoutInstant(channelId, req.startMs);
    const entry = nextVodEntry(await this.entriesAround(channelId, tMs), tMs);
    return entry ? { vod: { id: entry.id, title: entry.title, uri: entry.url } } : {};
  }

  /**
   * The channels contentChangedFrom may answer for now: a change found by a window read again, or a
   * version moved under a window this manager holds (a channel with none has nothing planned to cut).
   * Undefined (every channel is asked) when versions are known but not which moved.
   */
  takeChangedChannels(): Set<string> | undefined {
    const { scheduleVersion, takeChangedSchedules } = this.options;
    if (scheduleVersion && !takeChangedSchedules) return undefined;
    const ids = new Set(this.changedFrom.keys());
    for (const id of takeChangedSchedules?.() ?? []) if (this.windows.has(id)) ids.add(id);
    return ids;
  }

  /**
   * From when the channel's schedule changed since the engine last asked (undefined: it did not). A
   * version that moved since the window was read has it read again now, not at the next item.
   */
  async contentChangedFrom(req: VodRequest): Promise<number | undefined> {
    const channelId = req.playlistId ?? req.sessionId;
    const cached = this.windows.get(channelId);
    const version = this.options.scheduleVersion?.(channelId);
    if (cached && version !== undefined && cached.version !== version)
      await this.entriesAround(channelId, this.clock());
    const fromMs = this.changedFrom.get(channelId);
    this.changedFrom.delete(channelId);
    return fromMs;
  }

  handleError(err: Error, vodResponse?: VodResponse): void {
    this.options.log.warn('scheduled VOD failed in the engine', {
      err,
      entryId: vodResponse?.id,
      uri: vodResponse?.uri,
    });
  }
}
