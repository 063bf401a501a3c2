/**
 * What the engine knows of the schedule service, kept fresh for the price of one request per interval:
 * each refresh reads the service's change stamp (`GET /changes`) and lists the channels only when it
 * moved (or every `fullListMs`, so a lost stamp bump heals). A listed channel carries two versions
 * (docs/schedule-api.md "The engine"): the asset manager re-reads a channel's schedule only when its
 * `scheduleVersion` moved, and the LIVE entries are read here only for the channels whose `liveVersion`
 * moved (a channel that never had one is never read). The stream switch manager answers from here.
 * Nothing here is read per channel on a timer, so an idle deployment costs the same at 10 or 10,000
 * channels (docs/deploy.md "Polling cost"). Each list also notes which channels' versions it moved, so
 * the managers tell the engine which channels to ask (IAssetManager.takeChangedChannels).
 */

import type { Logger } from '../../../core/logger';
import { mapLimit } from '../../../core/map-limit';
import { playbackChannelId } from '../../../functions/schedule/playback-id';
import type { ScheduleEvent } from '../../src/index';
import { ChangedIds } from '../../src/util/changed-ids';
import type { ScheduleChannel, ScheduleEntry, ScheduleSource } from './schedule-client';

export interface ScheduleWatchOptions {
  source: ScheduleSource;
  log: Logger;
  clock?: () => number;
  /** The channels are listed at least this often, whatever the stamp says. */
  fullListMs?: number;
  /** LIVE entries that ended longer ago than this are neither read nor answered. */
  livePastMs?: number;
  /** LIVE reads in flight at once after a change (a burst at start-up, or after many changes). */
  concurrency?: number;
}

/** The version of a channel listed without one (written before the service kept them). */
const UNVERSIONED = -1;

const toEvent = (e: ScheduleEntry): ScheduleEvent => ({
  eventId: e.id,
  assetId: e.id,
  title: e.title,
  type: 1,
  start_time: e.start_time,
  end_time: e.end_time,
  uri: e.url,
});

interface LiveOf {
  version: number;
  events: ScheduleEvent[];
}

export class ScheduleWatch {
  private readonly clock: () => number;
  private readonly fullListMs: number;
  private readonly livePastMs: number;
  private readonly concurrency: number;
  /** The stamp everything below was read at; undefined until a refresh read everything it needed. */
  private stamp: number | undefined;
  private listedAtMs = Number.NEGATIVE_INFINITY;
  private channels: ScheduleChannel[] | undefined;
  private scheduleVersions = new Map<string, number>();
  private live = new Map<string, LiveOf>();
  /** Channels whose scheduleVersion, or whose LIVE entries, a list moved since they were last taken. */
  private readonly changed = { schedules: new ChangedIds(), live: new ChangedIds() };
  private running: Promise<ScheduleChannel[]> | undefined;

  constructor(private readonly options: ScheduleWatchOptions) {
    this.clock = options.clock ?? Date.now;
    this.fullListMs = options.fullListMs ?? 5 * 60_000;
    this.livePastMs = options.livePastMs ?? 12 * 3600_000;
    this.concurrency = options.concurrency ?? 8;
  }

  /** Every tenant's channels: the last list while the stamp stands still. One refresh at a time. */
  refresh(): Promise<ScheduleChannel[]> {
    this.running ??= this.read().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * The channel's schedule version as last listed (engine id `<tenantKey>~<id>`); undefined while the
   * channel has not been listed, so a reader cannot tell whether its copy is current.
   */
  scheduleVersion(engineId: string): number | undefined {
    return this.scheduleVersions.get(engineId);
  }

  /** The channels whose scheduleVersion moved since the last call (listed for the first time included). */
  takeChangedSchedules(): Set<string> {
    return this.changed.schedules.take();
  }

  /** The channels whose LIVE entries changed since the last call: liveEvents answers differently. */
  takeChangedLive(): Set<string> {
    return this.changed.live.take();
  }

  /** The channel's LIVE entries (as the engine's LIVE events) that ended less than livePastMs ago. */
  liveEvents(engineId: string): ScheduleEvent[] {
    const since = this.clock() - this.livePastMs;
    return (this.live.get(engineId)?.events ?? []).filter((e) => e.end_time > since);
  }

  private async read(): Promise<ScheduleChannel[]> {
    // Without a stamp (a service without /changes, or a blip) every refresh lists, as before stamps.
    const stamp = await this.options.source.changes().catch((err: unknown) => {
      this.options.log.warn('schedule change stamp not read; listing the channels', { err });
      return undefined;
    });
    const now = this.clock();
    const fresh = stamp !== undefined && stamp === this.stamp && now - this.listedAtMs < this.fullListMs;
    if (this.channels && fresh) return this.channels;
    const listed = await this.options.source.listChannels();
    const complete = await this.readLive(listed, now);
    this.channels = listed;
    const versions = new Map(
      listed.map((c) => [playbackChannelId(c.tenant, c.id), c.scheduleVersion ?? UNVERSIONED]),
    );
    for (const [id, version] of versions)
      if (this.scheduleVersions.get(id) !== version) this.changed.schedules.add(id);
    this.scheduleVersions = versions;
    this.listedAtMs = now;
    // A LIVE read that failed is tried again at the next refresh: the stamp is not taken as read.
    this.stamp = complete ? stamp : undefined;
    return listed;
  }

  /** Reads the LIVE entries of the channels whose liveVersion moved; false when a read failed. */
  private async readLive(listed: readonly ScheduleChannel[], now: number): Promise<boolean> {
    const live = new Map<string, LiveOf>();
    const stale: Array<{ engineId: string; channel: ScheduleChannel; version: number }> = [];
    for (const channel of listed) {
      const engineId = playbackChannelId(channel.tenant, channel.id);
      const version = channel.liveVersion ?? UNVERSIONED;
      const known = this.live.get(engineId);
      if (version === 0) continue;
      if (known?.version === version) live.set(engineId, known);
      else stale.push({ engineId, channel, version });
    }
    let complete = true;
    await mapLimit(stale, this.concurrency, async ({ engineId, channel, version }) => {
      try {
        const entries = await this.options.source.liveEntries(
          channel.id,
          now - this.livePastMs,
          channel.tenant,
        );
        live.set(engineId, { version, events: entries.filter((e) => e.type === 'LIVE').map(toEvent) });
      } catch (err) {
        complete = false;
        // Keep what was known: a blip of the API never drops a LIVE event already read.
        const known = this.live.get(engineId);
        if (known) live.set(engineId, { version: UNVERSIONED - 1, events: known.events });
        this.options.log.warn('LIVE entries of a schedule channel not read; tried again', {
          channelId: engineId,
          err,
        });
      }
    });
    for (const id of new Set([...this.live.keys(), ...live.keys()]))
      if (this.live.get(id)?.events !== live.get(id)?.events) this.changed.live.add(id);
    this.live = live;
    return complete;
  }
}
