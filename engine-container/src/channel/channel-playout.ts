/**
 * One channel: keeps its log extended ahead of the clock (lookahead), follows its schedule, resets on
 * request, and announces what starts. `advance()` never overlaps itself (one in flight per channel,
 * hls.js task-loop style); the engine's tick decides when to call it, from nextWakeMs().
 */
import type { Logger } from '../../../core/logger';
import type { EngineConfig } from '../config';
import type { EngineEvents } from '../events';
import { LiveMixer } from '../live/live-mixer';
import type { Metrics } from '../metrics';
import { type ChannelHeader, logEndMs, nextStartMs } from '../playout/append';
import type { PlayoutLogStore } from '../playout/log-store';
import { firstItemToKeep, itemSummary, liveItem } from '../playout/log-upkeep';
import type { TrackResolver } from '../playout/window';
import type { Channel, ScheduleEvent } from '../types';
import type { VodCache } from '../vod/vod-cache';
import { appendPlanned } from './append-planned';
import { type CutContext, cutInChangedContent, cutInLateEvent, cutMarginMs, resetChannel } from './cuts';
import { fixedTargetDurationS, waitsForContent } from './header';
import { LogTail } from './log-tail';
import { waitUntilOnAir } from './on-air-wait';
import type { FailingChannels } from './outage/failing-channels';
import { aloneExtendAtMs, continueLocally } from './outage/local-continuation';
import { OutageGuard } from './outage/outage-guard';
import type { LadderSource, PlannedItem, Planner } from './planner';
import { resumeAfterLive } from './resume-after-live';
import { eventIdsOf, planScheduled, sameEvents } from './schedule';
import { TailVods } from './tail-vods';
import { leadMs, logReadTtlMs, planBatchMs, planSpreadMs, waitingRetryMs, wakeAtMs } from './wake';
import { awaitAppend, WriterLease } from './writer-lease';

export interface ChannelDeps {
  config: EngineConfig;
  planner: Planner;
  store: PlayoutLogStore;
  vods: VodCache;
  events: EngineEvents;
  metrics: Metrics;
  log: Logger;
  resolve: TrackResolver;
  /** This engine's id in writer leases (unique per process). */
  owner: string;
  /** The engine's failing channels, kept as this channel starts and stops failing (for /health). */
  failing?: FailingChannels;
  onWake?: (atMs: number) => void; // every new wake time, for the engine's wake queue
}

/** Bound on appends per advance: a channel far behind catches up over several ticks. */
const MAX_APPENDS_PER_ADVANCE = 32;

export class ChannelPlayout {
  readonly tail: LogTail;
  private readonly lease: WriterLease;
  private busy: Promise<void> | undefined;
  private schedule: readonly ScheduleEvent[] = [];
  /** Any schedule event, VOD or LIVE: then every wake is a full advance. */
  private scheduled = false;
  private readonly mixer: LiveMixer;
  private lastStartedSeq = -1;
  private wakeAtMs = Number.NEGATIVE_INFINITY;
  private onAir = false;
  /** The tail's VODs: loaded in each advance, held in the cache after each run (tail-vods.ts). */
  private readonly tailVods: TailVods;
  /** Schedule events the tail plays, for one log version (only needed when there is a schedule). */
  private played: { version: number; events: Set<string> } | undefined;
  /** Failing advances (an unreachable store, mostly): backoff and log rate. */
  private readonly outage: OutageGuard;
  /** This channel's shares (wake.ts): of the planning spread (part of its lead), and its planning batch. */
  private readonly spreadMs: number;
  private readonly batchMs: number;
  /** What a reset or a late event's cut-in needs of this channel (cuts.ts). */
  private readonly cuts: CutContext;
  /** From when the asset manager's content changed (contentChanged), until cut in (a change made meanwhile
   * stays); lookAgain: a change (schedule, content) the next advance must look at, at once. */
  private changedFromMs: number | undefined;
  private lookAgain = false;
  /** Looks in a row that found no first items (wake.ts, waitingRetryMs); a change starts them over. */
  private waitingLooks = 0;

  constructor(
    public channel: Channel,
    private readonly deps: ChannelDeps,
  ) {
    this.tail = new LogTail(deps.store, channel.id, deps.config.clock, deps.config.playlistWindowMs);
    this.tailVods = new TailVods(this.tail, deps.vods, deps.log, channel.id);
    this.spreadMs = planSpreadMs(channel.id);
    this.batchMs = planBatchMs(channel.id);
    // Whole milliseconds: Redis takes PX in integers (volatileKeyTTL may be a fraction of a second).
    const ttlMs = Math.max(1, Math.round(deps.config.volatileKeyTTL * 1000));
    this.lease = new WriterLease(deps.store, channel.id, deps.owner, ttlMs, deps.log);
    const { log, metrics, failing } = deps;
    this.outage = new OutageGuard(channel.id, { log, metrics, clock: deps.config.clock, failing });
    this.mixer = new LiveMixer({
      ...deps,
      channel: () => this.channel,
      tail: this.tail,
      mayAsk: () => this.mayAsk(),
      append: (planned, startMs, header) => this.appendAll(planned, startMs, header),
      marginMs: () => cutMarginMs(deps.config),
    });
    this.cuts = {
      ...deps,
      channel: () => this.channel,
      tail: this.tail,
      lease: this.lease,
      header: () => this.header,
      mayAsk: () => this.mayAsk(),
      loadTailVods: () => this.tailVods.load(),
      appendAll: (planned, startMs, header) => this.appendAll(planned, startMs, header),
      plan: (startMs, header) => this.plan(startMs, header, []),
      extend: () => this.extend(),
    };
  }

  get header(): ChannelHeader | undefined {
    return this.tail.header;
  }

  nextWakeMs(): number {
    return this.wakeAtMs;
  }

  /** The channel was removed: its run in flight appends nothing more, and it holds no VOD. */
  close(): void {
    this.tail.close();
    this.outage.close();
    if (!this.busy) this.tailVods.hold(); // else when the run ends
  }

  /** Since when advances fail (the store is unreachable), or undefined when the channel is healthy. */
  get failingSinceMs(): number | undefined {
    return this.outage.sinceMs;
  }

  /** The channel as the channel manager lists it now; one still waiting for content looks again at once. */
  update(channel: Channel): void {
    const waiting =
      !this.header && channel !== this.channel && JSON.stringify(channel) !== JSON.stringify(this.channel);
    this.channel = channel;
    if (waiting) this.wakeNow();
  }

  /**
   * The stream switch manager's events now; true when they changed. A change is looked at by the next
   * tick, not at the next item start (a minute away on a slate): a late event cuts in (cuts.ts).
   */
  setSchedule(events: readonly ScheduleEvent[]): boolean {
    const valid = this.mixer.setSchedule(events);
    const changed = !sameEvents(this.schedule, valid);
    [this.schedule, this.scheduled] = [valid, events.length > 0];
    if (changed) this.wakeNow();
    return changed;
  }

  /** The asset manager's answers changed from fromMs on (IAssetManager.contentChangedFrom): cuts.ts. */
  contentChanged(fromMs: number): void {
    this.changedFromMs = Math.min(this.changedFromMs ?? fromMs, fromMs);
    this.wakeNow();
  }
  /** Due at the next tick; a run in flight may have missed the change, so its end makes it due again. */
  private wakeNow(): void {
    this.lookAgain = true;
    this.waitingLooks = 0;
    if (!this.busy) this.setWake(Math.min(this.wakeAtMs, this.deps.config.clock()));
  }

  /**
   * May the channel answer playlists? Once its log covers the present (its first item starts one window
   * back: any player's first playlist is a full window), for good: a log behind the clock is served as is.
   */
  isOnAir(): boolean {
    if (!this.onAir && this.header && logEndMs(this.tail.items) >= this.deps.config.clock())
      this.onAir = true;
    return this.onAir;
  }

  /** Advances the channel until it is on air (on-air-wait.ts); false when not within maxWaitMs. */
  whenOnAir(maxWaitMs: number): Promise<boolean> {
    return waitUntilOnAir(this, maxWaitMs);
  }

  /** Refreshes, extends and trims the log; concurrent callers share the one run in flight. */
  advance(): Promise<void> {
    if (!this.busy) {
      // Not due again while in flight: the engine's tick skips this channel until the run ends.
      this.wakeAtMs = Number.POSITIVE_INFINITY;
      this.busy = this.exclusive(() => this.runAdvance());
    }
    return this.busy;
  }

  /**
   * The tick's call for a due channel. A wake for an item start alone (the log reaches past the lead,
   * nothing else to watch) needs no run, nor a promise: all channels created together start items in
   * the same second. Undefined when done so (the next wake is set).
   */
  wake(): Promise<void> | undefined {
    const { header, tail } = this;
    const plain =
      !this.busy && !this.outage.failing && !this.scheduled && !this.mixer.holding && !this.lookAgain;
    if (!plain || !header || tail.pending.length > 0) return this.advance();
    if (logEndMs(tail.items) <= this.deps.config.clock() + this.leadMs(header)) return this.advance();
    this.announceStarted(); // not trimmed: the next run trims (a new tail version and a store call)
    this.setWake(this.computeWake());
    return undefined;
  }
  private setWake(atMs: number): void {
    this.wakeAtMs = atMs;
    this.deps.onWake?.(atMs);
  }

  async idle(): Promise<void> {
    while (this.busy) await this.busy;
  }

  /** Restarts the channel's content at the next segment boundary (engine README, "Reset"); returns where. */
  async reset(): Promise<number | undefined> {
    while (this.busy) await this.busy;
    let startMs: number | undefined;
    this.busy = this.exclusive(async () => {
      startMs = await resetChannel(this.cuts);
    });
    await this.busy;
    return startMs;
  }

  private exclusive(work: () => Promise<unknown>): Promise<void> {
    return work()
      .then((outcome) => {
        if (outcome !== 'alone') this.outage.recovered();
      })
      .catch(async (err: unknown) => {
        this.outage.failed(err);
        await this.continueAlone();
      })
      .finally(() => {
        this.busy = undefined;
        this.tailVods.hold();
        this.setWake(
          this.outage.failing ? this.outage.wakeAtMs(aloneExtendAtMs(this.tail)) : this.computeWake(),
        );
      });
  }

  /** Keeps the log ahead with the slate while the store is unreachable (outage/local-continuation.ts). */
  private continueAlone(): Promise<number> {
    const { config, planner, resolve, log } = this.deps;
    return continueLocally({ channel: this.channel, tail: this.tail, planner, resolve, log, config });
  }

  /** How much log is kept ahead of now (wake.ts). */
  private leadMs(header: ChannelHeader): number {
    // The engine's own log (no leases) keeps the lookahead it had: margin for a stalled process.
    const leaseTtlMs = this.lease.enabled || this.deps.store.soleWriter ? this.lease.ttlMs : undefined;
    return leadMs(header.targetDurationS, this.deps.config, leaseTtlMs, this.spreadMs);
  }

  /** When the channel next needs an advance (wake.ts). */
  private computeWake(): number {
    const header = this.header;
    const now = this.deps.config.clock();
    if (!header) return now + waitingRetryMs(this.waitingLooks++, this.deps.planner.reportsChanges);
    if (this.lookAgain) return now;
    return wakeAtMs(this.tail.items, now, this.leadMs(header), this.mixer.wakeMs());
  }

  private playedEvents(): Set<string> {
    const { version, items } = this.tail;
    if (this.played?.version !== version) this.played = { version, events: eventIdsOf(items) };
    return this.played.events;
  }

  /** One advance; 'alone' when the store is in its backoff and the log was only extended here. */
  private async runAdvance(): Promise<'alone' | undefined> {
    this.lookAgain = false;
    // Still failing: keep the log ahead alone first, in case this attempt hangs until its timeout.
    if (this.outage.failing) {
      const extended = await this.continueAlone();
      // Woken to extend the log alone before the backoff is over: try the store once now anyway, as
      // the next item must be decided, but only when nothing could be done alone.
      if (!this.outage.retryDue() && extended) return 'alone';
    }
    try {
      const { tail } = this;
      // While failing, every attempt reads the store: only an answer from it ends the outage.
      const probe = this.outage.failing || tail.pending.length > 0;
      if (probe || tail.isStale(logReadTtlMs(!this.header, this.deps.config))) await tail.refresh();
      if (this.tailVods.unchecked) await this.tailVods.load();
      if (this.scheduled && !this.mixer.holding)
        await cutInLateEvent(this.cuts, this.schedule, () => this.playedEvents());
      const changed = this.changedFromMs;
      if (changed !== undefined && (await cutInChangedContent(this.cuts, changed)))
        this.changedFromMs = this.changedFromMs === changed ? undefined : this.changedFromMs;
      else if (changed !== undefined) this.lookAgain = true;
      // While a LIVE event holds the log's end, VOD2Live waits (live/live-mixer.ts).
      // The first items fix the channel's header (ladder, target duration) before any live mixing.
      if (!this.header) await this.extend();
      const header = this.header;
      if (header && !(await this.mixer.step(header))) await this.extend();
    } finally {
      // Taken by a cut-in or an extension: held no longer than the run that needed it.
      await this.lease.release();
    }
    this.trim();
    this.announceStarted();
  }

  /** What plays from startMs; `resume`: what a LIVE event ending at the log's end cut into. */
  private plan(
    startMs: number,
    header: ChannelHeader | undefined,
    resume = resumeAfterLive(this.tail.items),
  ): Promise<PlannedItem[]> {
    const targetDurationS = header?.targetDurationS ?? fixedTargetDurationS(this.channel, this.deps.config);
    const ctx = { channel: this.channel, startMs, targetDurationS, resume };
    if (this.schedule.length === 0) return this.deps.planner.next(ctx);
    const live = this.mixer.nextStartMs(startMs);
    return planScheduled(this.deps.planner, ctx, this.schedule, this.playedEvents(), live);
  }

  /** Extends the log to the lead, and a channel on air without a schedule, once it appends, on to its
   * batch past it (wake.ts, planBatchMs); the caller releases the writer lease it may leave held. */
  private async extend(): Promise<void> {
    const { config } = this.deps;
    // A channel starting (or behind the clock), or whose content may change at short notice (a
    // schedule), only plans to the lead: start-up stays one pass, a late entry is planned, not cut in.
    const ahead = logEndMs(this.tail.items) > config.clock();
    const batches = ahead && !this.scheduled && !this.deps.planner.changesAhead(this.channel);
    let beyondMs = 0;
    for (let n = 0; n < MAX_APPENDS_PER_ADVANCE; n++) {
      const header = this.header;
      // Strictly ahead: a wake at exactly logEnd - lead (computeWake) must extend, not wait another tick.
      if (header && logEndMs(this.tail.items) > config.clock() + this.leadMs(header) + beyondMs) return;
      let upcoming: LadderSource | undefined;
      if (!header) {
        // The first items: the ladder comes from the channel's content, known ahead (header.ts). A
        // question, not an ask for an item: no lease for it, so a waiting channel writes nothing.
        const at = nextStartMs(this.tail.items, config.clock(), config.playlistWindowMs);
        const known = await this.deps.planner.upcoming({ channel: this.channel, startMs: at });
        if (waitsForContent(this.channel, known, this.scheduled)) return;
        if (known !== 'unknown') upcoming = known;
      }
      if (!(await this.mayAsk())) continue;
      const startMs = nextStartMs(this.tail.items, config.clock(), config.playlistWindowMs);
      const planned = await this.plan(startMs, header);
      if (planned.length === 0) return;
      if ((await this.appendAll(planned, startMs, header, upcoming)) && batches) beyondMs = this.batchMs;
    }
  }

  /**
   * May this engine ask the asset manager for the next item? Only while it holds the channel's lease
   * (held since an earlier ask of this run: confirmed). Having just taken it, it re-reads the log (never
   * ask twice for one slot); without it, it waits for the holder's append, up to a lease's life. False:
   * "look again" (log long enough, lease free). Answered at once when held (no frame per item asked).
   */
  private mayAsk(): boolean | Promise<boolean> {
    if (this.tail.closed) return false; // a removed channel's run in flight
    return this.lease.held ? this.lease.confirm() : this.takeLease();
  }
  private async takeLease(): Promise<boolean> {
    const seen = this.tail.lastSeq;
    if (await this.lease.take()) {
      if (this.lease.enabled) await this.tail.reread();
      return this.tail.lastSeq === seen;
    }
    await awaitAppend(this.tail, seen, this.lease.ttlMs, this.lease.pollMs);
    return false;
  }

  /** Appends planned items from startMs on (append-planned.ts); false when another writer got there first. */
  private appendAll(
    planned: PlannedItem[],
    startMs: number,
    known?: ChannelHeader,
    upcoming?: LadderSource,
  ): Promise<boolean> {
    return appendPlanned(this.deps, this.channel, this.tail, planned, startMs, known, upcoming);
  }

  private trim(): void {
    const { clock, playlistWindowMs } = this.deps.config;
    this.tail.dropBefore(firstItemToKeep(this.tail.items, clock(), playlistWindowMs));
  }

  /** Emits item_started once per item. (The engine's sweep keeps the tail's VODs in the cache.) */
  private announceStarted(): void {
    const live = liveItem(this.tail.items, this.deps.config.clock());
    if (live && live.seq > this.lastStartedSeq) {
      this.lastStartedSeq = live.seq;
      this.deps.events.emit(this.channel.id, 'item_started', itemSummary(live));
    }
  }
}
