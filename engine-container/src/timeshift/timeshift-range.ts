/**
 * The time-shifted window a playlist request asks for (`?start=` and `&end=`, docs/timeshift.md): ISO
 * 8601 instants with a zone, or Unix seconds, as AWS MediaPackage's time-shifted viewing takes them;
 * `&from=programme` moves the start back to the start of the programme on air at `start`. Pure; a bad
 * value is a 400 naming the parameter.
 */
import { badRequest } from '../../../core/errors';
import { parseIsoInstant } from '../../../core/time/iso-instant';

export interface TimeshiftRange {
  fromMs: number;
  /** Absent: an EVENT playlist that grows with the live edge. */
  toMs?: number;
  /** `from=programme`: start at the start of the programme on air at fromMs (resolved from the log). */
  programme?: true;
}

/** `from`'s values: the instant asked (the default) or the start of the programme on air then. */
const FROM = ['start', 'programme'] as const;

/**
 * The most a window may span, as AWS MediaPackage's time-shifted viewing ("accepts requests for up to 24
 * hours of content"): a playlist of 2 s segments over it is ~4 MB. `start` may be older with a longer
 * retention, with an `end` within this of it.
 */
export const MAX_WINDOW_MS = 24 * 3_600_000;

const EPOCH_SECONDS = /^\d{1,11}(\.\d{1,3})?$/;

function instant(value: string, field: string): number {
  if (EPOCH_SECONDS.test(value)) return Math.round(Number(value) * 1000);
  return parseIsoInstant(value, field);
}

/** The range of `?start=&end=`, or undefined when the request has no `start` (the live playlist). */
export function timeshiftRange(
  params: URLSearchParams,
  nowMs: number,
  retentionMs: number,
): TimeshiftRange | undefined {
  const start = params.get('start');
  const end = params.get('end');
  const from = params.get('from');
  if (start === null) {
    if (end !== null || from !== null)
      throw badRequest(`${end !== null ? 'end' : 'from'} needs start`, 'start');
    return undefined;
  }
  if (from !== null && !(FROM as readonly string[]).includes(from))
    throw badRequest(`from must be one of ${FROM.join(', ')}`, 'from');
  const programme = from === 'programme' ? ({ programme: true } as const) : {};
  const fromMs = instant(start, 'start');
  if (fromMs >= nowMs) throw badRequest('start must be in the past', 'start');
  if (fromMs < nowMs - retentionMs)
    throw badRequest(`start must be within the last ${Math.round(retentionMs / 3_600_000)} h`, 'start');
  const most = `${MAX_WINDOW_MS / 3_600_000} h`;
  if (end === null) {
    if (nowMs - fromMs > MAX_WINDOW_MS)
      throw badRequest(`start must be within ${most}, or end given`, 'start');
    return { fromMs, ...programme };
  }
  const toMs = instant(end, 'end');
  if (toMs <= fromMs) throw badRequest('end must be after start', 'end');
  if (toMs - fromMs > MAX_WINDOW_MS) throw badRequest(`end must be within ${most} of start`, 'end');
  return { fromMs, toMs, ...programme };
}

/** The query a time-shifted master gives its renditions: the same window (its start resolved). */
export const timeshiftQuery = (range: TimeshiftRange): string =>
  `start=${range.fromMs / 1000}${range.toMs === undefined ? '' : `&end=${range.toMs / 1000}`}` +
  (range.programme ? '&from=programme' : '');
