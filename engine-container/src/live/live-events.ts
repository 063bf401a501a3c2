/**
 * The stream switch manager's rules for LIVE events (type 1), pure (docs/live-mixing.md):
 * 1. the first LIVE event (by start) with start_time <= now < end_time switches the channel to LIVE;
 *    events that have ended are ignored;
 * 2. once LIVE, nothing switches the channel until that event ends or its source fails ("done");
 * 3. an event whose end is not after its start is no event (ignored, logged once by the caller).
 */
import type { ScheduleEvent } from '../types';

export const LIVE_EVENT = 1;

export const isValidEvent = (e: ScheduleEvent): boolean =>
  Number.isFinite(e.start_time) && Number.isFinite(e.end_time) && e.end_time > e.start_time;

const liveEvents = (events: readonly ScheduleEvent[], done: ReadonlySet<string>) =>
  events
    .filter((e) => e.type === LIVE_EVENT && isValidEvent(e) && !done.has(e.eventId))
    .sort((a, b) => a.start_time - b.start_time || a.eventId.localeCompare(b.eventId));

/**
 * The LIVE event to switch to once the log reaches logEndMs (its start is in the log's reach) and
 * that is still on at the earliest instant a switch can happen (rule 1 seen from the log's end).
 */
export function switchInEvent(
  events: readonly ScheduleEvent[],
  done: ReadonlySet<string>,
  logEndMs: number,
  earliestMs: number,
): ScheduleEvent | undefined {
  return liveEvents(events, done).find((e) => e.start_time <= logEndMs && e.end_time > earliestMs);
}

/** Start of the next LIVE event after atMs: VOD2Live before it is truncated to end there. */
export function nextLiveStartMs(
  events: readonly ScheduleEvent[],
  done: ReadonlySet<string>,
  atMs: number,
): number | undefined {
  return liveEvents(events, done).find((e) => e.start_time > atMs)?.start_time;
}
