/**
 * The daily billing files: every channel's as-run entries that started on one UTC day, one CSV per
 * channel at `asrun/<day>/<channel>.csv` (core/asrun/asrun-csv.ts columns), read from the as-run
 * table's `byDay` index a page at a time. Channel ids are URL-safe except a schedule channel's `~`,
 * which S3 keys take as it is. Writing a day again replaces its files with the same content.
 */
import { asRunCsv } from '../../core/asrun/asrun-csv';
import type { AsRunEntry } from '../../core/asrun/asrun-entry';
import type { AsRunStore } from '../../core/asrun/asrun-store';

export interface CsvWriter {
  put(key: string, csv: string): Promise<void>;
}

export const exportKey = (day: string, channelId: string): string => `asrun/${day}/${channelId}.csv`;

/** The day before `nowMs` (UTC), `YYYY-MM-DD`: the last whole day. */
export const previousUtcDay = (nowMs: number): string =>
  new Date(Math.floor(nowMs / 86_400_000) * 86_400_000 - 86_400_000).toISOString().slice(0, 10);

const PAGE = 1000;

/** Writes the day's files; returns how many channels and entries. */
export async function exportDay(
  store: AsRunStore,
  writer: CsvWriter,
  day: string,
): Promise<{ channels: number; entries: number }> {
  let channel: string | undefined;
  let rows: AsRunEntry[] = [];
  let channels = 0;
  let entries = 0;
  const flush = async () => {
    if (channel === undefined) return;
    await writer.put(exportKey(day, channel), asRunCsv(channel, rows));
    channels++;
    entries += rows.length;
  };
  let after: Record<string, string | number> | undefined;
  do {
    const page = await store.day(day, { limit: PAGE, ...(after ? { after } : {}) });
    // The index sorts by channel, then start: a channel's entries are consecutive.
    for (const { channelId, entry } of page.items) {
      if (channelId !== channel) {
        await flush();
        channel = channelId;
        rows = [];
      }
      rows.push(entry);
    }
    after = page.next;
  } while (after);
  await flush();
  return { channels, entries };
}
