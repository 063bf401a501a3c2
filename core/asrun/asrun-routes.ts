/**
 * What the channel API's `GET /channel/{id}/asrun` and the schedule API's
 * `GET /api/v1/channels/{id}/asrun` share once each has found the caller's channel: the range
 * (`start`/`end`, ISO 8601, end exclusive; default the last 24 hours), the page (`limit`, `cursor`)
 * and the format (JSON, or CSV with `?format=csv`). docs/asrun.md.
 */
import { z } from 'zod';
import { badRequest } from '../errors';
import type { ApiRequest, ApiResponse } from '../http';
import { json } from '../http';
import { nextPageHeaders, type PageLimits, readPage } from '../paging';
import { parseIsoInstant } from '../time/iso-instant';
import { asRunCsv, CSV_CONTENT_TYPE } from './asrun-csv';
import { asRunEntrySchema, asRunView } from './asrun-entry';
import { type AsRunStore, asRunPageKey } from './asrun-store';

export const ASRUN_PAGES: PageLimits = { defaultLimit: 500, maxLimit: 1000 };
const DAY_MS = 86_400_000;
/** The longest range one request may ask for: a year (retention is shorter anyway). */
export const MAX_ASRUN_RANGE_DAYS = 366;

export const asRunQuery = {
  start: z
    .string()
    .describe('ISO 8601 instant with a zone: entries that started at or after it (default: end − 24 h)'),
  end: z.string().describe('ISO 8601 instant with a zone: entries that started before it (default: now)'),
  format: z.enum(['json', 'csv']).describe('json (default) or csv'),
  limit: z.string().describe('page size, 1..1000 (default 500)'),
  cursor: z.string().describe('the `x-next-cursor` of the previous page'),
};

export const asRunListSchema = z.array(asRunEntrySchema);

export function asRunRange(query: Record<string, string>, nowMs: number): { fromMs: number; toMs: number } {
  const toMs = query.end === undefined ? nowMs : parseIsoInstant(query.end, 'end');
  const fromMs = query.start === undefined ? toMs - DAY_MS : parseIsoInstant(query.start, 'start');
  if (toMs <= fromMs) throw badRequest('end must be after start', 'end');
  if (toMs - fromMs > MAX_ASRUN_RANGE_DAYS * DAY_MS)
    throw badRequest(`the range may span at most ${MAX_ASRUN_RANGE_DAYS} days`, 'end');
  return { fromMs, toMs };
}

function asRunFormat(query: Record<string, string>): 'json' | 'csv' {
  const { format } = query;
  if (format === undefined || format === 'json') return 'json';
  if (format === 'csv') return 'csv';
  throw badRequest('format: must be json or csv', 'format');
}

/** A page of the channel's as-run log (engine channel id `channelId`), as the request asks. */
export async function asRunResponse(
  req: ApiRequest,
  store: AsRunStore,
  channelId: string,
  nowMs: number,
): Promise<ApiResponse> {
  const format = asRunFormat(req.query);
  const { fromMs, toMs } = asRunRange(req.query, nowMs);
  const page = readPage(req.query, ASRUN_PAGES, asRunPageKey(channelId, fromMs, toMs));
  const { items, next } = await store.range(channelId, fromMs, toMs, page);
  const paging = nextPageHeaders(req, next);
  if (format === 'json') return json(200, items.map(asRunView), paging);
  return {
    status: 200,
    headers: { 'content-type': CSV_CONTENT_TYPE, ...paging },
    rawBody: asRunCsv(channelId, items),
  };
}

/** The route doc both APIs give (their path parameter and tag differ). */
export const asRunDoc = (idSchema: z.ZodTypeAny, tag: string, exampleId: string) => ({
  summary: "The channel's as-run log: what aired, a page at a time (JSON, or CSV with ?format=csv)",
  tag,
  params: { id: idSchema },
  query: asRunQuery,
  responses: {
    200: { description: 'the entries that started in the range, oldest first', schema: asRunListSchema },
  },
  example: { params: { id: exampleId } },
});
