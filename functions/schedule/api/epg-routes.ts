/**
 * `GET /api/v1/channels/{id}/epg.xml` (XMLTV) and `epg.json`: the entries of a time range (the same
 * `?date=` / `?start=&end=` as the schedule) as an EPG (epg.ts). Unlike the schedule, an EPG is one
 * document: every page of the range is read, up to MAX_EPG_PROGRAMMES.
 */
import { z } from 'zod';
import { toEpg, toXmltv } from '../../../core/epg/epg';
import { scheduleRange } from '../../../core/epg/time-range';
import { HttpError, notFound } from '../../../core/errors';
import type { ApiRequest, ApiResponse, Route } from '../../../core/http';
import { json } from '../../../core/http';
import type { ScheduleApiDeps } from '../deps';
import type { ScheduleEntry } from '../model';
import type { Caller } from './auth';
import { rangeQuery, scheduleId } from './schemas';

/** A week of 1-minute programmes; a longer EPG is refused (422), never cut short silently. */
export const MAX_EPG_PROGRAMMES = 10_080;
const PAGE = 1000;

export interface EpgRouteContext {
  prefix: string;
  open(req: ApiRequest): Promise<{ deps: ScheduleApiDeps; caller: Caller | undefined; tenant: string }>;
  readTenant(req: ApiRequest, caller: Caller | undefined, own: string, all: boolean): string;
  pathId(req: ApiRequest): string;
}

const epgSchema = z.object({
  channel: z.object({ id: z.string(), title: z.string() }),
  range: z.object({ start: z.string(), end: z.string() }),
  programmes: z.array(
    z.object({ title: z.string(), start: z.string(), stop: z.string(), type: z.string(), url: z.string() }),
  ),
});

export function epgRoutes(ctx: EpgRouteContext): Route[] {
  const build = async (req: ApiRequest) => {
    const { deps, caller, tenant: own } = await ctx.open(req);
    const tenant = ctx.readTenant(req, caller, own, false);
    const id = ctx.pathId(req);
    const range = scheduleRange(req.query, deps.clock(), deps.maxRangeDays);
    const channel = await deps.channels.get(tenant, id);
    if (!channel) throw notFound(`channel ${id} not found`);
    const entries: ScheduleEntry[] = [];
    let after: Record<string, string | number> | undefined;
    do {
      const page = await deps.entries.listOverlapping(tenant, id, range.fromMs, range.toMs, {
        limit: PAGE,
        after,
      });
      entries.push(...page.items);
      after = page.next;
      if (entries.length > MAX_EPG_PROGRAMMES)
        throw new HttpError(
          422,
          'too_many_programmes',
          `more than ${MAX_EPG_PROGRAMMES} programmes: ask for a shorter range`,
        );
    } while (after);
    return toEpg({ id: channel.id, title: channel.title }, range.fromMs, range.toMs, entries);
  };
  const doc = (summary: string, schema: z.ZodTypeAny, contentType?: string) => ({
    summary,
    tag: 'channels',
    params: { id: scheduleId },
    query: rangeQuery,
    responses: { 200: { description: 'the programmes of the range', schema, contentType } },
    example: { params: { id: 'news' } },
  });
  return [
    {
      method: 'GET',
      path: `${ctx.prefix}/channels/{id}/epg.xml`,
      doc: doc('The EPG of a time range as XMLTV (default: today, UTC)', z.string(), 'application/xml'),
      handler: async (req): Promise<ApiResponse> => ({
        status: 200,
        headers: { 'content-type': 'application/xml; charset=utf-8' },
        rawBody: toXmltv(await build(req)),
      }),
    },
    {
      method: 'GET',
      path: `${ctx.prefix}/channels/{id}/epg.json`,
      doc: doc('The EPG of a time range as JSON (default: today, UTC)', epgSchema),
      handler: async (req) => json(200, await build(req)),
    },
  ];
}
