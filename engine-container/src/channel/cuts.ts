/**
 * Cutting into a channel's log ahead of now: a reset (engine README, "Reset"), a schedule event
 * announced late (live-mixing.md, rule 3), and content the asset manager changed after it was planned
 * (IAssetManager.contentChangedFrom: a schedule entry added late). Each starts at a segment boundary far
 * enough ahead that no engine, whose view of the log may be up to sharedLogMaxAgeMs old, has served
 * what the cut replaces.
 */
import type { Logger } from '../../../core/logger';
import type { EngineConfig } from '../config';
import type { EngineEvents } from '../events';
import { type ChannelHeader, cutBoundaryMs, logEndMs } from '../playout/append';
import { type ItemDraft, itemEndMs, type PlayoutItem } from '../playout/item';
import { cutsOf } from '../playout/item-range';
import { eventsEndMs, liveItem } from '../playout/log-upkeep';
import type { TrackResolver } from '../playout/window';
import type { Channel, ScheduleEvent } from '../types';
import type { LogTail } from './log-tail';
import type { PlannedItem, Planner } from './planner';
import { lateEvent } from './schedule';
import type { WriterLease } from './writer-lease';

/** What a cut needs of its channel (channel-playout.ts). */
export interface CutContext {
  /** The channel as it is now (its settings may change while it plays). */
  channel(): Channel;
  config: EngineConfig;
  planner: Planner;
  resolve: TrackResolver;
  events: EngineEvents;
  log: Logger;
  tail: LogTail;
  lease: WriterLease;
  header(): ChannelHeader | undefined;
  mayAsk(): boolean | Promise<boolean>;
  loadTailVods(): Promise<void>;
  appendAll(planned: PlannedItem[], startMs: number, header: ChannelHeader): Promise<boolean>;
  /** What the channel plays from startMs, as its log's extension would plan it (its schedule's events kept). */
  plan(startMs: number, header: ChannelHeader): Promise<PlannedItem[]>;
  extend(): Promise<void>;
}

/** How far ahead of now a cut starts: covers instances whose view of the log is up to this old. */
export const cutMarginMs = (config: EngineConfig): number => Math.max(config.sharedLogMaxAgeMs, 500);

/** Where a cut at or after atMs can start (cutBoundaryMs). */
const boundaryAt = (ctx: CutContext, atMs: number): number =>
  cutBoundaryMs(ctx.tail.items, atMs, ctx.resolve);

/** Plays a schedule event announced after its start, cutting into what plays (the lease holder only). */
export async function cutInLateEvent(
  ctx: CutContext,
  schedule: readonly ScheduleEvent[],
  played: () => Set<string>,
): Promise<void> {
  const header = ctx.header();
  if (!header || schedule.length === 0) return;
  const now = ctx.config.clock();
  const toleranceMs = (header.targetDurationS + 1) * 1000;
  const late = lateEvent(schedule, played(), now, logEndMs(ctx.tail.items), toleranceMs);
  // Rule 3: an event that is playing is never cut into by another one; the next waits for its end.
  if (late && liveItem(ctx.tail.items, Math.max(late.start_time, now))?.eventId) return;
  // Every task sees the same schedule: only the lease holder cuts in (its append would otherwise
  // race, and discard, an item the holder is appending from the asset manager).
  if (!late || !(await ctx.mayAsk())) return;
  const at = boundaryAt(ctx, Math.max(late.start_time, now + cutMarginMs(ctx.config)));
  const planned = await ctx.planner.event(
    { channel: ctx.channel(), startMs: at, targetDurationS: header.targetDurationS },
    late,
  );
  // The clock moved while planning: never cut before what players may have seen meanwhile.
  const start = boundaryAt(ctx, Math.max(at, ctx.config.clock() + cutMarginMs(ctx.config)));
  if (planned.length) await ctx.appendAll(planned, start, header);
}

/**
 * Plans again, from the first boundary the engine can still reach at or after fromMs, what the asset
 * manager now answers differently (IAssetManager.contentChangedFrom), and cuts it in there (the lease
 * holder only). What the log plays of a schedule event is never cut (rule 3): the cut starts after it.
 * A change beyond the log's end needs no cut: the log's extension asks for it. False: look again at the
 * next advance (another engine held the lease, or appended meanwhile).
 */
export async function cutInChangedContent(ctx: CutContext, fromMs: number): Promise<boolean> {
  const header = ctx.header();
  if (!header) return true;
  const from = () =>
    Math.max(fromMs, ctx.config.clock() + cutMarginMs(ctx.config), eventsEndMs(ctx.tail.items));
  if (boundaryAt(ctx, from()) >= logEndMs(ctx.tail.items)) return true;
  if (!(await ctx.mayAsk())) return false;
  // The lease may just have been taken, and the log read again: where to cut is decided on it.
  const at = boundaryAt(ctx, from());
  if (at >= logEndMs(ctx.tail.items)) return true;
  const planned = await ctx.plan(at, header);
  // Another engine may have cut the same change in already (each one's asset manager tells it).
  if (planned.length === 0 || playsAlready(ctx.tail.items, at, planned[0]!.draft)) return true;
  // The clock moved while planning: never cut before what players may have seen meanwhile.
  const start = boundaryAt(ctx, Math.max(at, from()));
  return ctx.appendAll(planned, start, header);
}

/**
 * Does the log already play the draft from atMs (a segment boundary)? The same media from the same
 * position, ending at the same instant; a slate (or gap) ending no earlier.
 */
export function playsAlready(items: readonly PlayoutItem[], atMs: number, draft: ItemDraft): boolean {
  const item = liveItem(items, atMs);
  if (!item || item.kind !== draft.kind || item.uri !== draft.uri) return false;
  const endMs = Math.min(itemEndMs(item), cutsOf(items)[items.indexOf(item)]!);
  if (draft.loop) return atMs + draft.durationMs >= endMs;
  return item.offsetMs + atMs - item.startMs === draft.offsetMs && atMs + draft.durationMs === endMs;
}

/** Restarts the channel's content at the next boundary; returns where, or undefined when it could not. */
export async function resetChannel(ctx: CutContext): Promise<number | undefined> {
  // A reset must happen: it waits for the lease (the holder is extending the log), then asks.
  if (!(await ctx.lease.takeWithin(2 * ctx.lease.ttlMs)))
    ctx.log.warn('reset without the writer lease', { channelId: ctx.channel().id });
  try {
    return await resetUnderLease(ctx);
  } finally {
    await ctx.lease.release();
  }
}

async function resetUnderLease(ctx: CutContext): Promise<number | undefined> {
  await ctx.tail.refresh();
  await ctx.loadTailVods();
  const header = ctx.header();
  if (!header) return undefined;
  const now = ctx.config.clock();
  const req = { channel: ctx.channel(), startMs: now, targetDurationS: header.targetDurationS };
  const planned = await ctx.planner.next(req);
  if (planned.length === 0) return undefined;
  // Read the clock again: planning took time, and segments ending meanwhile may have been served.
  const start = boundaryAt(ctx, ctx.config.clock() + cutMarginMs(ctx.config));
  const appended = await ctx.appendAll(planned, start, header);
  if (appended) ctx.events.emit(ctx.channel().id, 'channel_reset', { startMs: start, seq: ctx.tail.lastSeq });
  await ctx.extend();
  return appended ? start : undefined;
}
