/**
 * The as-run log as CSV (RFC 4180, CRLF-free: `\n` line ends, a header line): one row per entry, the
 * same columns from the APIs and in the daily billing files, so a billing tool reads either.
 */
import type { AsRunEntry } from './asrun-entry';

export const ASRUN_CSV_HEADER = [
  'channel',
  'start',
  'end',
  'duration_ms',
  'kind',
  'id',
  'title',
  'event_id',
  'reason',
  'cue_out',
  'cue_in',
  'break_duration_ms',
  'planned_break_duration_ms',
  'break_delivery',
  'live_in',
  'live_out',
  'live_out_reason',
] as const;

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

const iso = (ms: number | undefined): string => (ms === undefined ? '' : new Date(ms).toISOString());

/** A cell: quoted when it holds a comma, a quote or a line break; a leading =+-@ is defused for spreadsheets. */
export function csvCell(value: string | number | undefined): string {
  if (value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function asRunCsvRow(channelId: string, e: AsRunEntry): string {
  return [
    channelId,
    iso(e.startMs),
    iso(e.endMs),
    e.durationMs,
    e.kind,
    e.id,
    e.title,
    e.eventId,
    e.reason,
    iso(e.adBreak?.cueOutMs),
    iso(e.adBreak?.cueInMs),
    e.adBreak?.durationMs,
    e.adBreak?.plannedDurationMs,
    e.adBreak?.delivery,
    iso(e.live?.inMs),
    iso(e.live?.outMs),
    e.live?.outReason,
  ]
    .map(csvCell)
    .join(',');
}

/** Header plus one row per entry, newline-terminated. */
export function asRunCsv(channelId: string, entries: readonly AsRunEntry[]): string {
  return `${[ASRUN_CSV_HEADER.join(','), ...entries.map((e) => asRunCsvRow(channelId, e))].join('\n')}\n`;
}
