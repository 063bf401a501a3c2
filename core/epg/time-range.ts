/**
 * The time range of a schedule or guide request, pure (the schedule API's schedules and EPGs, the
 * channel API's EPG): `?date=YYYY-MM-DD` is that UTC day [00:00, 24:00);
 * `?start=&end=` are ISO 8601 instants (end exclusive, at most maxRangeDays apart); neither means
 * today (UTC). Bad input is a 400 naming the parameter.
 */
import { badRequest } from '../errors';
import { parseIsoInstant } from '../time/iso-instant';

export interface TimeRange {
  fromMs: number;
  toMs: number;
}

export const DAY_MS = 86_400_000;

/** Midnight UTC of a YYYY-MM-DD that names a real calendar day, else undefined. */
export function utcDayStart(date: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  // Date.UTC rolls 2024-02-30 over to March: a real day reads back unchanged.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d)
    return undefined;
  return ms;
}

export interface RangeOptions {
  /** `start` without `end` means from start on, unbounded (the LIVE entries of a channel are few). */
  openEnd?: boolean;
}

export function scheduleRange(
  query: Record<string, string>,
  nowMs: number,
  maxRangeDays: number,
  { openEnd = false }: RangeOptions = {},
): TimeRange {
  const { date, start, end } = query;
  if (date !== undefined) {
    if (start !== undefined || end !== undefined)
      throw badRequest('use either date or start and end', 'date');
    const fromMs = utcDayStart(date);
    if (fromMs === undefined) throw badRequest('date must be a calendar day as YYYY-MM-DD', 'date');
    return { fromMs, toMs: fromMs + DAY_MS };
  }
  if (start === undefined && end === undefined) {
    const fromMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
    return { fromMs, toMs: fromMs + DAY_MS };
  }
  if (start === undefined) throw badRequest('start is required with end', 'start');
  if (end === undefined && openEnd)
    return { fromMs: parseIsoInstant(start, 'start'), toMs: Number.MAX_SAFE_INTEGER };
  if (end === undefined) throw badRequest('end is required with start', 'end');
  const fromMs = parseIsoInstant(start, 'start');
  const toMs = parseIsoInstant(end, 'end');
  if (toMs <= fromMs) throw badRequest('end must be after start', 'end');
  if (toMs - fromMs > maxRangeDays * DAY_MS)
    throw badRequest(`the range may span at most ${maxRangeDays} days`, 'end');
  return { fromMs, toMs };
}
