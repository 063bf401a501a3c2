/**
 * What a schedule puts on air at an instant, as the engine's VodResponse, pure: the entry whose
 * [start, end) holds t, joined at offset t - start and cut at its end; between entries, a gap (the
 * engine plays its slate) lasting until the next entry starts.
 */

import type { AdBreak, VodResponse } from '../../src/index';
import type { ScheduleEntry } from './schedule-client';

export interface OnAirOptions {
  /** A gap with no entry after it (schedule not filled that far) lasts this long, then asks again. */
  openGapMs: number;
  /** Gaps are cut to this, so a late-filled schedule is picked up soon. */
  maxGapMs: number;
  /**
   * Less than this left of an entry is not worth an item (the engine rounds an item up to whole
   * segments): the next entry (or gap) is played instead.
   */
  minRemainingMs: number;
}

export const DEFAULT_ON_AIR_OPTIONS: OnAirOptions = {
  openGapMs: 10_000,
  maxGapMs: 60_000,
  minRemainingMs: 1000,
};

export interface OnAir {
  response: VodResponse;
  /** The instant the schedule continues after this item: the next call's t. */
  endsAtMs: number;
}

/** EXT-X-DATERANGE attributes of an entry (the engine adds ID, START-DATE and DURATION of the item). */
export function entryMetadata(entry: ScheduleEntry): Record<string, string | number> {
  return {
    title: entry.title,
    'schedule-entry-id': entry.id,
    'schedule-start': entry.start,
    'schedule-end': entry.end,
    'channel-id': entry.channelId,
  };
}

/**
 * An entry's ad break for the engine: a point in the entry's content. `startOffset` (t - start) counts
 * the entry's time, which with spliced breaks is the programme's (content and ads: VodResponse.adBreaks),
 * so a join mid-entry lands where the programme is.
 */
const adBreakOf = (b: NonNullable<ScheduleEntry['adBreaks']>[number]): AdBreak => ({
  offsetMs: b.offset,
  durationMs: b.duration,
  uri: b.url,
});

function gap(tMs: number, durationMs: number): OnAir {
  return {
    response: { id: `gap-${tMs}`, title: 'gap', type: 'gap', desiredDuration: durationMs, unixTs: tMs },
    endsAtMs: tMs + durationMs,
  };
}

/** `entries` ordered by start (as the schedule API returns them). */
export function onAirAt(
  all: readonly ScheduleEntry[],
  tMs: number,
  options: OnAirOptions = DEFAULT_ON_AIR_OPTIONS,
): OnAir {
  // LIVE entries are the stream switch manager's (switch-manager.ts); the engine cuts them in itself.
  const entries = all.filter((e) => e.type !== 'LIVE');
  // Of overlapping entries the one that started last plays: a manual entry placed over the
  // auto-scheduler's older ones wins for its span, and the older one resumes where the clock is...
  const holding = entries.filter(
    (e) => e.start_time <= tMs && tMs < e.end_time && e.end_time - tMs >= options.minRemainingMs,
  );
  const current = holding.reduce<ScheduleEntry | undefined>(
    (a, e) => (a && a.start_time >= e.start_time ? a : e),
    undefined,
  );
  if (current) {
    // ...and it stops where a later entry starts over it.
    const cutAt = Math.min(
      current.end_time,
      ...entries
        .filter((e) => e.start_time > tMs && e.start_time < current.end_time)
        .map((e) => e.start_time),
    );
    return {
      response: {
        id: current.id,
        title: current.title,
        uri: current.url,
        startOffset: tMs - current.start_time,
        desiredDuration: cutAt - tMs,
        unixTs: tMs,
        timedMetadata: entryMetadata(current),
        ...(current.adBreaks?.length ? { adBreaks: current.adBreaks.map(adBreakOf) } : {}),
      },
      endsAtMs: cutAt,
    };
  }
  const next = entries.find((e) => e.end_time > tMs);
  if (!next) return gap(tMs, options.openGapMs);
  // The tail of an almost finished entry is skipped: the next one starts now, up to a second early.
  if (next.start_time <= tMs) return onAirAt(entries, next.end_time, options);
  return gap(tMs, Math.min(next.start_time - tMs, options.maxGapMs));
}

/** The first VOD entry still running at tMs or starting after it (`entries` ordered by start). */
export function nextVodEntry(entries: readonly ScheduleEntry[], tMs: number): ScheduleEntry | undefined {
  return entries.find((e) => e.type !== 'LIVE' && e.end_time > tMs);
}
