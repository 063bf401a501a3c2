/**
 * A channel's schedule over HTTP (docs/schedule-api.md): the entries of a range, and manual entries
 * added and removed. A manual entry is refused when it ends in the past or overlaps an entry of its
 * type (entry-store.ts checks and writes in one), and its source is checked as HLS (manual-entry.ts).
 */
import { z } from 'zod';
import { scheduleRange } from '../../../core/epg/time-range';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { json, type Route } from '../../../core/http';
import { type PageLimits, pageResponse, readPage } from '../../../core/paging';
import { parseWith } from '../../../core/validation';
import { checkLiveSource } from '../live-target-duration';
import { entryPageKey } from '../stores/page-keys';
import { checkAdBreaksInside, checkAdSources } from './ad-breaks';
import type { EpgRouteContext } from './epg-routes';
import { checkEntrySource, manualEntry } from './manual-entry';
import {
  createEntrySchema,
  entrySchema,
  entryTypeQuery,
  entryTypeSchema,
  pageQuery,
  rangeQuery,
  scheduleId,
  warningsSchema,
} from './schemas';

/** `?limit=` of a schedule (docs/schedule-api.md). */
export const SCHEDULE_PAGES: PageLimits = { defaultLimit: 500, maxLimit: 1000 };

const idParam = { id: scheduleId };
const tenantQuery = { tenant: z.string().describe('another tenant (schedule:read-all tokens)') };

export function entryRoutes(ctx: EpgRouteContext): Route[] {
  return [
    {
      method: 'GET',
      path: `${ctx.prefix}/channels/{id}/schedule`,
      doc: {
        summary: 'The entries that overlap a time range (default: today, UTC)',
        tag: 'channels',
        params: idParam,
        query: { ...rangeQuery, ...entryTypeQuery, ...pageQuery, ...tenantQuery },
        responses: { 200: { description: 'a page of entries, by start', schema: z.array(entrySchema) } },
        example: { params: { id: 'news' } },
      },
      handler: async (req) => {
        const { deps, caller, tenant: own } = await ctx.open(req);
        const tenant = ctx.readTenant(req, caller, own, false);
        const id = ctx.pathId(req);
        const type =
          req.query.type === undefined ? undefined : parseWith(entryTypeSchema, req.query.type, 'type');
        const { type: _, ...rangeParams } = req.query;
        const range = scheduleRange(rangeParams, deps.clock(), deps.maxRangeDays, {
          openEnd: type === 'LIVE',
        });
        const page = readPage(req.query, SCHEDULE_PAGES, entryPageKey(tenant, id, range.fromMs));
        if (!(await deps.channels.get(tenant, id))) throw notFound(`channel ${id} not found`);
        const { items, next } = await deps.entries.listOverlapping(
          tenant,
          id,
          range.fromMs,
          range.toMs,
          page,
          type,
        );
        return pageResponse(req, items, next);
      },
    },
    {
      method: 'POST',
      path: `${ctx.prefix}/channels/{id}/schedule`,
      doc: {
        summary: 'Add an entry by hand: a LIVE event or a VOD (the auto-scheduler plans around it)',
        tag: 'channels',
        params: idParam,
        body: createEntrySchema,
        responses: {
          201: {
            description:
              'the entry, as the schedule lists it (with `warnings` when a LIVE source does not answer yet)',
            schema: entrySchema.extend({ warnings: warningsSchema }),
          },
          409: { description: 'the entry overlaps another entry of its type (named in the message)' },
        },
        example: {
          params: { id: 'news' },
          body: {
            title: 'Match',
            type: 'LIVE',
            url: 'https://example.com/live/master.m3u8',
            start: '2030-01-01T20:00:00Z',
            end: '2030-01-01T21:45:00Z',
          },
        },
      },
      handler: async (req) => {
        const { deps, tenant } = await ctx.open(req);
        const id = ctx.pathId(req);
        const body = parseWith(createEntrySchema, req.body);
        const channel = await deps.channels.get(tenant, id);
        if (!channel) throw notFound(`channel ${id} not found`);
        if (body.end !== undefined && Date.parse(body.end) <= deps.clock())
          throw badRequest('the entry ends in the past', 'end');
        // Breaks past a given end are refused before any ad is fetched.
        if (body.end !== undefined)
          checkAdBreaksInside(body.adBreaks, Date.parse(body.end) - Date.parse(body.start));
        await checkAdSources(body.adBreaks, deps.probe);
        const warnings = await checkEntrySource(body, deps.probe);
        if (body.type === 'LIVE') await checkLiveSource(body.url, channel, deps.liveSegmentS);
        const entry = await manualEntry(id, body, deps.vodDurationMs);
        checkAdBreaksInside(entry.adBreaks, entry.end_time - entry.start_time);
        if (entry.end_time <= deps.clock()) throw badRequest('the entry ends in the past', 'end');
        const put = await deps.entries.putManual(tenant, id, entry);
        if (typeof put === 'object')
          throw conflict(
            `the entry overlaps ${put.overlaps.type} entry ${put.overlaps.id} (${put.overlaps.start} to ${put.overlaps.end})`,
          );
        if (put === 'taken') throw conflict(`another entry of channel ${id} ends at ${entry.end}`);
        if (put === 'busy') throw conflict(`the schedule of channel ${id} is being changed; try again`);
        if (put === 'no-channel') throw notFound(`channel ${id} not found`);
        return json(201, warnings.length ? { ...entry, warnings } : entry);
      },
    },
    {
      method: 'DELETE',
      path: `${ctx.prefix}/channels/{id}/schedule/{entryId}`,
      doc: {
        summary: 'Remove an entry added by hand',
        tag: 'channels',
        params: { ...idParam, entryId: scheduleId },
        responses: { 204: { description: 'removed' } },
        example: { params: { id: 'news', entryId: 'm-00000000-0000-4000-8000-000000000000' } },
      },
      handler: async (req) => {
        const { deps, tenant } = await ctx.open(req);
        const id = ctx.pathId(req);
        const entryId = parseWith(scheduleId, req.params.entryId, 'entryId');
        if (!(await deps.entries.removeManual(tenant, id, entryId)))
          throw notFound(`entry ${entryId} of channel ${id} not found`);
        return json(204);
      },
    },
  ];
}
