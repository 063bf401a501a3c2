/**
 * A schedule channel's entries through the schedule API: read the window the timeline shows, add a
 * manual LIVE or VOD entry, delete a manual one, and move one. The API has no move: a move adds the
 * entry at its new time first and deletes the old one only once the new one is accepted, so a refused
 * time (an overlap, the past) leaves the entry where it was. It is not atomic: between the two calls
 * both entries exist, and if the delete fails the old one stays too (the page says so).
 */
import { ApiError, call, cfg } from './api';

/** An ad break of a VOD entry, as the API returns and takes it (docs/schedule-api.md "Ad breaks"). */
export interface AdBreak {
  offset: number;
  duration: number;
  url: string;
}

export interface Entry {
  id: string;
  title: string;
  type: string;
  url: string;
  start_time: number;
  end_time: number;
  adBreaks?: AdBreak[];
}

export interface NewEntry {
  title: string;
  type: 'VOD' | 'LIVE';
  url: string;
  /** ISO instants; a VOD may leave `end` out and last its VOD's duration. */
  start: string;
  end?: string;
  adBreaks?: AdBreak[];
}

/** Manual entries (the only ones the API deletes) have ids starting with `m-`. */
export const isManual = (e: Pick<Entry, 'id'>): boolean => e.id.startsWith('m-');

const path = (channel: string) => `/channels/${encodeURIComponent(channel)}/schedule`;

export const listEntries = (channel: string, from: number, to: number): Promise<Entry[]> =>
  call<Entry[]>(
    cfg().scheduleApi,
    `${path(channel)}?${new URLSearchParams({ start: new Date(from).toISOString(), end: new Date(to).toISOString() })}`,
  );

export const addEntry = (channel: string, entry: NewEntry): Promise<Entry> =>
  call<Entry>(cfg().scheduleApi, path(channel), { method: 'POST', body: entry });

export const deleteEntry = (channel: string, entryId: string): Promise<void> =>
  call<void>(cfg().scheduleApi, `${path(channel)}/${encodeURIComponent(entryId)}`, { method: 'DELETE' });

/**
 * The entry at `startMs`, same length and ad breaks; the old one deleted once the new one is in. A schedule that
 * refuses overlaps refuses a short move for overlapping the entry itself (409 naming its id): then the
 * old one is deleted first, and put back (with a new id) if the new time is refused too.
 */
export async function moveEntry(channel: string, entry: Entry, startMs: number): Promise<Entry> {
  const at = (start: number): NewEntry => ({
    title: entry.title,
    type: entry.type === 'LIVE' ? 'LIVE' : 'VOD',
    url: entry.url,
    start: new Date(start).toISOString(),
    end: new Date(start + entry.end_time - entry.start_time).toISOString(),
    // Offsets are into the entry's content, so its breaks move with it unchanged.
    ...(entry.adBreaks ? { adBreaks: entry.adBreaks } : {}),
  });
  let moved: Entry;
  try {
    moved = await addEntry(channel, at(startMs));
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 409 && err.message.includes(entry.id))) throw err;
    await deleteEntry(channel, entry.id);
    try {
      return await addEntry(channel, at(startMs));
    } catch (refused) {
      await addEntry(channel, at(entry.start_time)).catch(() => undefined);
      throw refused;
    }
  }
  await deleteEntry(channel, entry.id);
  return moved;
}

/** A `datetime-local` value (the browser's zone, to the second) and back to epoch ms. */
export const toLocalInput = (ms: number): string => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 19);
};
export const fromLocalInput = (value: string): number => new Date(value).getTime();
