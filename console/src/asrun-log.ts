/**
 * Reading a channel's as-run log (docs/asrun.md): one local day's entries, every page of it (the API
 * names the next page in `x-next-cursor`), as JSON for the table or as one CSV for a download.
 */
import { request } from './api';

export interface AsRunEntry {
  startMs: number;
  endMs: number;
  durationMs: number;
  kind: 'vod' | 'preroll' | 'slate' | 'live';
  id: string;
  title: string;
  eventId?: string;
  reason?: string;
  adBreak?: { cueOutMs: number; cueInMs: number; durationMs: number; plannedDurationMs?: number };
  live?: { inMs: number; outMs: number; outReason: string };
}

/** Where a channel's as-run log is: the API's base URL and the route's path. */
export interface AsRunSource {
  base: string;
  path: string;
}

/** A page of 1000 at most; 50 pages cover a day of 2-second items. */
const PAGE_LIMIT = 1000;
const MAX_PAGES = 50;

/** `YYYY-MM-DD` of the browser's own day. */
export const localDay = (ms: number): string => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

/** The instants a local day spans, as the API takes them (ISO 8601 with a zone). */
export function dayRange(day: string): { start: string; end: string } {
  const [y, m, d] = day.split('-').map(Number);
  const start = new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  const end = new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1);
  return { start: start.toISOString(), end: end.toISOString() };
}

export function asRunPath(source: AsRunSource, day: string, format: 'json' | 'csv', cursor?: string) {
  const q = new URLSearchParams({ ...dayRange(day), limit: String(PAGE_LIMIT) });
  if (format === 'csv') q.set('format', 'csv');
  if (cursor) q.set('cursor', cursor);
  return `${source.path}?${q}`;
}

/** Every page of the day, in order, each as the API's body text. */
async function pages(source: AsRunSource, day: string, format: 'json' | 'csv'): Promise<string[]> {
  const bodies: string[] = [];
  let cursor: string | undefined;
  do {
    const res = await request(source.base, asRunPath(source, day, format, cursor));
    bodies.push(await res.text());
    cursor = res.headers.get('x-next-cursor') ?? undefined;
  } while (cursor && bodies.length < MAX_PAGES);
  return bodies;
}

export const readAsRun = async (source: AsRunSource, day: string): Promise<AsRunEntry[]> =>
  (await pages(source, day, 'json')).flatMap((body) => JSON.parse(body) as AsRunEntry[]);

/** The day as one CSV: the first page's header, then every page's rows. */
export async function readAsRunCsv(source: AsRunSource, day: string): Promise<string> {
  const [first = '', ...rest] = await pages(source, day, 'csv');
  const rows = rest.map((body) => body.slice(body.indexOf('\n') + 1));
  return [first, ...rows].map((b) => (b.endsWith('\n') || b === '' ? b : `${b}\n`)).join('');
}
