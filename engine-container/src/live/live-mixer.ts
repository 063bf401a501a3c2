/**
 * Live mixing for one channel (docs/live-mixing.md): switches the channel's log from VOD2Live to a
 * LIVE event's source at the first segment boundary at or after the event's start, appends the
 * source's new segments as they appear, and hands the log back to VOD2Live at the event's end or when
 * the source fails. Everything it decides is in the shared log (live items carry their segments), so
 * every engine serves the same playlists; only the writer-lease holder fetches the source and appends.
 */
import type { Logger } from '../../../core/logger';
import type { LogTail } from '../channel/log-tail';
import { AssetError, type PlannedItem, type Planner } from '../channel/planner';
import type { EngineConfig } from '../config';
import { type ChannelHeader, cutBoundaryMs, logEndMs, REFERENCE_KEY } from '../playout/append';
import type { ItemDraft, PlayoutItem } from '../playout/item';
import { eventsEndMs } from '../playout/log-upkeep';
import type { TrackResolver } from '../playout/window';
import type { Channel, ScheduleEvent } from '../types';
import { buildParsedVod } from '../vod/parsed-vod';
import { openBreakAt, placeCues } from './live-cues';
import { isValidEvent, nextLiveStartMs, switchInEvent } from './live-events';
import { liveLead } from './live-lead';
import {
  commonFirstMsn,
  commonLastMsn,
  itemLastMsn,
  joinMsn,
  type LiveMap,
  liveSegments,
  longestSegmentMs,
  mapLiveSource,
  sliceMsn,
} from './live-segments';
import { type LiveSnapshot, LiveSourceError } from './live-source';
import { readLiveSource } from './read-live-source';

/** A source without a new segment for this many of its target durations has failed (issue 8). */
export const STALL_TARGET_DURATIONS = 3;
/** The most playback the log keeps ahead of the clock while LIVE, in source target durations: the
 * stall detection (3) plus a poll, a plan and a margin, so a failed source is replaced before players
 * run dry; less when the source's window is short (live-lead.ts). */
export const LIVE_LEAD_TARGET_DURATIONS = 5;

/**
 * The part of the live lead beyond the stall detection, in the channel's target durations: what the
 * log must still lead by when VOD2Live takes over from a source given up (a poll, a plan, a margin).
 * A read that may pass (LiveSourceError.passing) is asked again only while the log leads by more.
 */
const KEEP_TARGET_DURATIONS = LIVE_LEAD_TARGET_DURATIONS - STALL_TARGET_DURATIONS;
const keepMs = (header: ChannelHeader) => KEEP_TARGET_DURATIONS * header.targetDurationS * 1000;

export interface LiveMixerDeps {
  channel(): Channel;
  tail: LogTail;
  config: EngineConfig;
  planner: Planner;
  log: Logger;
  resolve: TrackResolver;
  /** The channel's writer lease (ChannelPlayout.mayAsk): only its holder appends. */
  mayAsk(): boolean | Promise<boolean>;
  append(planned: PlannedItem[], startMs: number, header: ChannelHeader): Promise<boolean>;
  /** How far ahead of now a cut may start (ChannelPlayout.marginMs). */
  marginMs(): number;
}

interface Following {
  eventId: string;
  /** The newest media sequence number this engine saw the source list, and when it first saw it:
   * whoever appended the segments (the writer lease moves between engines). */
  lastMsn: number;
  lastNewAtMs: number;
  targetDurationS: number;
}

export class LiveMixer {
  private schedule: readonly ScheduleEvent[] = [];
  /** LIVE events this engine saw end, fail or refused: never switched to again (rule 2). */
  private readonly done = new Set<string>();
  private readonly reportedInvalid = new Set<string>();
  private readonly reportedShortWindow = new Set<string>();
  private following: Following | undefined;
  /** How far the log leads the clock for each LIVE event's source, once seen: when to join it. */
  private readonly sourceLead = new Map<string, number>();
  private wakeAt: number | undefined;

  constructor(private readonly deps: LiveMixerDeps) {}

  /** The valid events (end after start); the others are logged once and ignored. */
  setSchedule(events: readonly ScheduleEvent[]): ScheduleEvent[] {
    const valid = events.filter(isValidEvent);
    for (const e of events) {
      if (isValidEvent(e) || this.reportedInvalid.has(e.eventId)) continue;
      this.reportedInvalid.add(e.eventId);
      this.deps.log.warn('schedule event ignored: its end is not after its start', {
        channelId: this.deps.channel().id,
        eventId: e.eventId,
      });
    }
    this.schedule = valid;
    return valid;
  }

  /** Start of the next LIVE event after atMs (VOD2Live is truncated to end there). */
  nextStartMs(atMs: number): number | undefined {
    return nextLiveStartMs(this.schedule, this.done, atMs);
  }

  /** When the channel must advance for live mixing; undefined when no LIVE event holds the log. */
  wakeMs(): number | undefined {
    return this.wakeAt;
  }

  /** Is the log's end a LIVE event's (following it, or waiting to switch in)? Then VOD2Live waits. */
  get holding(): boolean {
    return this.wakeAt !== undefined;
  }

  private pollMs(targetDurationS: number): number {
    return Math.max(500, Math.min(2000, (targetDurationS * 1000) / 2));
  }

  /** One step: true while the mixer holds the log's end (no VOD2Live then); nothing to mix: false, no frame. */
  step(header: ChannelHeader): false | Promise<boolean> {
    this.wakeAt = undefined;
    const last = this.deps.tail.last;
    // No LIVE event: no tail item read (an idle engine's cost is reading memory: docs/benchmarks.md).
    if (this.schedule.length === 0 && last?.kind !== 'live') return false;
    // Events the log shows started and no longer at its end are done, whoever appended them (HA).
    const following = last?.kind === 'live' ? last.eventId : undefined;
    for (const item of this.deps.tail.items)
      if (item.eventId && item.eventId !== following) this.done.add(item.eventId);
    return this.mix(last, header);
  }

  private async mix(last: PlayoutItem | undefined, header: ChannelHeader): Promise<boolean> {
    const live = last?.kind === 'live' && last.eventId && !this.done.has(last.eventId) ? last : undefined;
    // Just switched out: another LIVE event may be on now (overlapping events, rule 2).
    return (live !== undefined && (await this.follow(live, header))) || this.switchIn(header);
  }

  private async switchIn(header: ChannelHeader): Promise<boolean> {
    const { tail, config, resolve } = this.deps;
    const now = config.clock();
    const logEnd = logEndMs(tail.items);
    const earliest = now + this.deps.marginMs();
    const upcoming = switchInEvent(this.schedule, this.done, logEnd, earliest);
    if (!upcoming) return false;
    // Rule 2: never cut into an event the log plays (a VOD event, or the LIVE event before this one).
    const from = Math.max(upcoming.start_time, earliest, eventsEndMs(tail.items));
    const atMs = Math.min(logEnd, cutBoundaryMs(tail.items, from, resolve));
    if (atMs >= upcoming.end_time) {
      this.done.add(upcoming.eventId);
      return false;
    }
    // Join when the source's newest segments, played from atMs on, keep the log ahead by the lead
    // (in the source's target durations; the channel's until the source was seen once).
    const joinAtMs = () =>
      atMs -
      (this.sourceLead.get(upcoming.eventId) ?? LIVE_LEAD_TARGET_DURATIONS * header.targetDurationS * 1000);
    if (now < joinAtMs()) {
      this.wakeAt = joinAtMs();
      return true;
    }
    this.wakeAt = now + this.pollMs(header.targetDurationS);
    if (!(await this.deps.mayAsk())) return true;
    // A read that may pass is asked again until the event's start (never past the log's end here) is
    // what VOD2Live needs to take over (keepMs) away: a deadline every engine agrees on (writer leases).
    const leftMs = () => upcoming.start_time - config.clock() - keepMs(header);
    const snapshot = await readLiveSource(upcoming, config, this.affordableMs(logEnd));
    if (snapshot instanceof LiveSourceError) {
      if (this.asksAgain(upcoming, snapshot, leftMs(), header.targetDurationS)) return true;
      this.report(upcoming, snapshot);
      this.done.add(upcoming.eventId);
      return false;
    }
    const map = mapLiveSource(snapshot, header.ladder, config.alwaysMapBandwidthByNearest);
    const leadMs = this.leadMs(map, snapshot, header, upcoming);
    this.sourceLead.set(upcoming.eventId, leadMs);
    if (now < joinAtMs()) {
      this.wakeAt = joinAtMs();
      return true;
    }
    if (!this.fits(map, header, upcoming)) {
      await this.refuse(upcoming, atMs, header);
      return false;
    }
    const toMsn = commonLastMsn(map.used);
    const fromMsn = joinMsn(map.ref, commonFirstMsn(map.used), toMsn, leadMs + (now - atMs));
    // Reading the source took time: never cut before what players may have seen meanwhile.
    const cutMs = cutBoundaryMs(tail.items, config.clock() + this.deps.marginMs(), resolve);
    const startMs = Math.min(logEndMs(tail.items), Math.max(atMs, cutMs));
    const draft = this.draft(upcoming, map, fromMsn, toMsn, startMs, startMs);
    if (!draft) return false;
    this.following = {
      eventId: upcoming.eventId,
      lastMsn: toMsn,
      lastNewAtMs: now,
      targetDurationS: snapshot.targetDurationS,
    };
    this.deps.log.info('switching to LIVE', {
      channelId: this.deps.channel().id,
      eventId: upcoming.eventId,
      startMs,
    });
    await this.deps.append([this.planned(draft, snapshot)], startMs, header);
    this.wakeAt = now + this.pollMs(snapshot.targetDurationS);
    return true;
  }

  private async follow(last: PlayoutItem, header: ChannelHeader): Promise<boolean> {
    const { tail, config } = this.deps;
    const now = config.clock();
    const eventId = last.eventId!;
    const event = this.schedule.find((e) => e.eventId === eventId);
    const logEnd = logEndMs(tail.items);
    if (!event || logEnd >= event.end_time) return this.switchOut(eventId, event ? 'ended' : 'removed');
    if (this.following?.eventId !== eventId)
      this.following = { eventId, lastMsn: -1, lastNewAtMs: now, targetDurationS: header.targetDurationS };
    const state = this.following;
    // Segments another engine appended (the writer lease moves): the source listed them.
    const logged = itemLastMsn(last) ?? -1;
    if (logged > state.lastMsn) {
      state.lastMsn = logged;
      state.lastNewAtMs = now;
    }
    this.wakeAt = now + this.pollMs(state.targetDurationS);
    if (!(await this.deps.mayAsk())) return true;
    // A read that may pass counts as silence: asked again while the source may still be silent
    // (STALL_TARGET_DURATIONS) and the log leads by more than VOD2Live needs to take over.
    const stallMs = STALL_TARGET_DURATIONS * state.targetDurationS * 1000;
    const leftMs = () => {
      const at = config.clock();
      return Math.min(state.lastNewAtMs + stallMs - at, logEnd - at - keepMs(header));
    };
    const snapshot = await readLiveSource(event, config, this.affordableMs(logEnd));
    if (snapshot instanceof LiveSourceError) {
      if (this.asksAgain(event, snapshot, leftMs(), state.targetDurationS)) return true;
      this.report(event, snapshot);
      return this.switchOut(eventId, 'failed');
    }
    state.targetDurationS = snapshot.targetDurationS;
    const map = mapLiveSource(snapshot, header.ladder, config.alwaysMapBandwidthByNearest);
    if (!this.fits(map, header, event)) return this.switchOut(eventId, 'refused');
    const toMsn = commonLastMsn(map.used);
    const after = itemLastMsn(last) ?? -1;
    if (toMsn > state.lastMsn) {
      state.lastMsn = toMsn;
      state.lastNewAtMs = now;
    }
    if (toMsn <= after) {
      const silentMs = now - state.lastNewAtMs;
      if (
        map.used.some((v) => v.ended) ||
        silentMs > STALL_TARGET_DURATIONS * snapshot.targetDurationS * 1000
      ) {
        const stalled = new AssetError(`${event.uri}: no new segment for ${silentMs} ms`);
        this.report(event, Object.assign(stalled, { code: 'live_stalled' }));
        return this.switchOut(eventId, 'stalled');
      }
      return true;
    }
    const fromMsn = Math.max(after + 1, commonFirstMsn(map.used));
    const draft = this.draft(event, map, fromMsn, toMsn, logEnd, last.live?.inMs ?? last.startMs);
    if (!draft) return this.switchOut(eventId, 'ended');
    // The next segments continue the stream; after segments the source dropped before this engine
    // saw them, or where the source says so itself, the stream jumps, and a discontinuity says so.
    const sourceJump = draft.live!.segments[REFERENCE_KEY]![0]!.discontinuity === 1;
    if (fromMsn === after + 1 && !sourceJump) draft.continues = 1;
    await this.deps.append([this.planned(draft, snapshot)], logEnd, header);
    return true;
  }

  private switchOut(eventId: string, why: string): false {
    this.done.add(eventId);
    this.following = undefined;
    this.wakeAt = undefined;
    this.deps.log.info('switching back to VOD2Live', { channelId: this.deps.channel().id, eventId, why });
    return false;
  }

  /**
   * Will a failed read be asked again at the next poll (tdS: the poll's target duration)? Only one that
   * may pass, while at least a poll of its budget is left (logged). Otherwise the caller gives up.
   */
  private asksAgain(event: ScheduleEvent, err: LiveSourceError, leftMs: number, tdS: number): boolean {
    const pollMs = this.pollMs(tdS);
    // The next read starts before the budget is spent (a source answering errors is given up in time).
    if (!err.passing || leftMs < pollMs) return false;
    this.deps.log.warn('live source read failed: asked again', {
      channelId: this.deps.channel().id,
      eventId: event.eventId,
      code: err.code,
      err,
    });
    // The read may have taken its whole timeout: the next one is a poll from now, not at once.
    this.wakeAt = this.deps.config.clock() + pollMs;
    return true;
  }

  /** How long a read may take: what the log still leads the clock by, less the margin of a cut. */
  private affordableMs(logEnd: number): number {
    return logEnd - this.deps.config.clock() - this.deps.marginMs();
  }

  private report(event: ScheduleEvent, err: Error): void {
    this.deps.planner.report(this.deps.channel(), err, {
      id: event.assetId,
      title: event.title,
      uri: event.uri,
    });
  }

  /** Are the segments of every playlist the channel would play no longer than its target duration? */
  private fits(map: LiveMap, header: ChannelHeader, event: ScheduleEvent): boolean {
    const longest = longestSegmentMs(map.used);
    if (Math.round(longest / 1000) <= header.targetDurationS) return true;
    const message = `${event.uri} has ${(longest / 1000).toFixed(3)} s segments, longer than the channel target duration ${header.targetDurationS} s`;
    this.report(event, Object.assign(new AssetError(message), { code: 'live_segments_too_long' }));
    return false;
  }

  /** How far the log leads the clock on this source (live-lead.ts); a window too short is logged once. */
  private leadMs(map: LiveMap, snapshot: LiveSnapshot, header: ChannelHeader, event: ScheduleEvent): number {
    const lead = liveLead({
      sourceWindowMs: map.ref.segments.reduce((sum, s) => sum + s.durationMs, 0),
      sourceTargetDurationS: snapshot.targetDurationS,
      channelTargetDurationS: header.targetDurationS,
      marginMs: this.deps.marginMs(),
      maxLeadMs: LIVE_LEAD_TARGET_DURATIONS * snapshot.targetDurationS * 1000,
    });
    if (!lead.fits && !this.reportedShortWindow.has(event.eventId)) {
      this.reportedShortWindow.add(event.eventId);
      this.deps.log.warn('live source window too short: players may fetch segments it deleted', {
        channelId: this.deps.channel().id,
        eventId: event.eventId,
        leadMs: lead.leadMs,
      });
    }
    return lead.leadMs;
  }

  /** A source the channel cannot play: the slate for the event instead. */
  private async refuse(event: ScheduleEvent, atMs: number, header: ChannelHeader): Promise<void> {
    this.done.add(event.eventId);
    const ctx = { channel: this.deps.channel(), startMs: atMs, targetDurationS: header.targetDurationS };
    const planned = await this.deps.planner.slate(ctx, 'live_segments_too_long', {
      durationMs: event.end_time - atMs,
    });
    for (const p of planned) p.draft.eventId = event.eventId;
    if (planned.length) await this.deps.append(planned, atMs, header);
  }

  /** The item of segments [fromMsn, toMsn] starting at startMs, cut at the event's end; inMs: the as-run's switch in. */
  private draft(
    event: ScheduleEvent,
    map: LiveMap,
    fromMsn: number,
    toMsn: number,
    startMs: number,
    inMs: number,
  ): ItemDraft | undefined {
    const ref = map.ref;
    let end = fromMsn;
    for (let at = startMs; end <= toMsn && at < event.end_time; end++)
      at += ref.segments[end - ref.mediaSequence]!.durationMs;
    if (end === fromMsn) return undefined;
    const endpoint = this.deps.config.dummySubtitleEndpoint;
    const open = openBreakAt(this.deps.tail.items, event.eventId);
    const { cues } = placeCues(sliceMsn(ref, fromMsn, end - 1), fromMsn, startMs, event.eventId, open);
    const live = liveSegments(
      map,
      fromMsn,
      end - 1,
      startMs,
      (s, d) => `${endpoint}?startMs=${s}&durationMs=${d}`,
      cues,
    );
    live.inMs = inMs;
    live.eventEndMs = event.end_time;
    const durationMs = live.segments[REFERENCE_KEY]!.reduce((sum, s) => sum + s.durationMs, 0);
    return {
      kind: 'live',
      id: event.assetId || event.eventId,
      title: event.title,
      uri: event.uri,
      offsetMs: 0,
      durationMs,
      loop: 0,
      eventId: event.eventId,
      live,
    };
  }

  private planned(draft: ItemDraft, snapshot: LiveSnapshot): PlannedItem {
    const variants = snapshot.variants.map((v) => ({
      variant: v.variant,
      playlist: { segments: v.segments },
    }));
    return { draft, vod: buildParsedVod(snapshot.uri, variants, []) };
  }
}
