/**
 * Live mixing, VOD events: which scheduled VOD event (type 2) a channel must play next, when the
 * asset manager's VOD must end so it starts on time, and when an event announced late must cut in.
 * LIVE events (type 1) are live/live-mixer.ts's (docs/live-mixing.md).
 */
import type { PlayoutItem } from '../playout/item';
import type { ScheduleEvent } from '../types';
import type { PlanContext, PlannedItem, Planner } from './planner';

export const VOD_EVENT = 2;

/** A VOD event lasts its asset's duration, which wins over end_time (engine README, live mixing). */
export const eventEndMs = (e: ScheduleEvent): number =>
  e.start_time + (e.duration ?? e.end_time - e.start_time);

const pending = (events: readonly ScheduleEvent[], played: ReadonlySet<string>, afterMs: number) =>
  events
    .filter((e) => e.type === VOD_EVENT && !played.has(e.eventId) && eventEndMs(e) > afterMs)
    .sort((a, b) => a.start_time - b.start_time);

/** The event to play at startMs: one already started, or starting within `toleranceMs`. */
export function dueEvent(
  events: readonly ScheduleEvent[],
  played: ReadonlySet<string>,
  startMs: number,
  toleranceMs: number,
): ScheduleEvent | undefined {
  return pending(events, played, startMs).find((e) => e.start_time <= startMs + toleranceMs);
}

/** Start of the next event after startMs (the VOD before it is truncated to end there). */
export function nextEventStartMs(
  events: readonly ScheduleEvent[],
  played: ReadonlySet<string>,
  startMs: number,
): number | undefined {
  return pending(events, played, startMs).find((e) => e.start_time > startMs)?.start_time;
}

/** An event the log already runs past (it was announced late): it must cut into what is playing. */
export function lateEvent(
  events: readonly ScheduleEvent[],
  played: ReadonlySet<string>,
  nowMs: number,
  logEndMs: number,
  toleranceMs: number,
): ScheduleEvent | undefined {
  return pending(events, played, nowMs).find((e) => e.start_time + toleranceMs < logEndMs);
}

/**
 * What a channel with a schedule plans at ctx.startMs: the VOD event due then, else the asset
 * manager's next VOD, truncated to end where the next event (VOD, or LIVE: `liveStartMs`) starts.
 */
export function planScheduled(
  planner: Planner,
  ctx: PlanContext,
  events: readonly ScheduleEvent[],
  played: ReadonlySet<string>,
  liveStartMs: number | undefined,
): Promise<PlannedItem[]> {
  const toleranceMs = ((ctx.targetDurationS ?? 0) + 1) * 1000;
  const due = dueEvent(events, played, ctx.startMs, toleranceMs);
  if (due) return planner.event(ctx, due);
  const starts = [nextEventStartMs(events, played, ctx.startMs), liveStartMs];
  const untilMs = Math.min(...starts.map((s) => s ?? Number.POSITIVE_INFINITY));
  return planner.next({ ...ctx, untilMs: Number.isFinite(untilMs) ? untilMs : undefined });
}

/** Do two answers of the stream switch manager hold the same events? */
export function sameEvents(a: readonly ScheduleEvent[], b: readonly ScheduleEvent[]): boolean {
  return (
    a.length === b.length &&
    a.every((e, i) => {
      const o = b[i]!;
      return (
        e.eventId === o.eventId &&
        e.type === o.type &&
        e.start_time === o.start_time &&
        e.end_time === o.end_time &&
        e.uri === o.uri &&
        e.duration === o.duration
      );
    })
  );
}

/** The schedule events the items play (their eventIds). */
export function eventIdsOf(items: readonly PlayoutItem[]): Set<string> {
  const ids = new Set<string>();
  for (const item of items) if (item.eventId) ids.add(item.eventId);
  return ids;
}
