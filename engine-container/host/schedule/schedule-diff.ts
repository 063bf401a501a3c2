/**
 * From when an edit of a channel's schedule puts something else on air, pure: the earliest instant at
 * which two versions of its VOD entries differ, within what both versions were read for. An entry
 * added, removed, moved or given another URL changes what is on air from its start (the earlier of its
 * two starts); one only made longer or shorter, from its earlier end. A title is metadata: no change.
 * LIVE entries are the stream switch manager's, cut in by the engine itself (switch-manager.ts).
 */
import type { ScheduleEntry } from './schedule-client';

function changeOf(before: ScheduleEntry | undefined, after: ScheduleEntry | undefined): number | undefined {
  if (!before || !after) return (before ?? after)?.start_time;
  if (before.start_time !== after.start_time || before.url !== after.url)
    return Math.min(before.start_time, after.start_time);
  if (before.end_time !== after.end_time) return Math.min(before.end_time, after.end_time);
  return undefined;
}

/** The first instant in [fromMs, toMs) at which `after` plays something else than `before`, if any. */
export function firstChangeMs(
  before: readonly ScheduleEntry[],
  after: readonly ScheduleEntry[],
  fromMs: number,
  toMs: number,
): number | undefined {
  const vods = (entries: readonly ScheduleEntry[]) =>
    new Map(
      entries
        .filter((e) => e.type !== 'LIVE' && e.end_time > fromMs && e.start_time < toMs)
        .map((e) => [e.id, e]),
    );
  const was = vods(before);
  const is = vods(after);
  let first = Number.POSITIVE_INFINITY;
  for (const id of new Set([...was.keys(), ...is.keys()]))
    first = Math.min(first, changeOf(was.get(id), is.get(id)) ?? Number.POSITIVE_INFINITY);
  return Number.isFinite(first) ? Math.max(first, fromMs) : undefined;
}
