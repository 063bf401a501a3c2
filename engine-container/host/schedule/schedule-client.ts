/**
 * The engine plugin's view of the schedule service: its public HTTP API, so an engine can run
 * anywhere the API is reachable. Bounded like every other fetch (timeout, size); answers are
 * checked with zod before anything trusts them. The client reads every tenant: `GET /changes`,
 * `GET /channels?tenant=*` and `GET /channels/{id}/schedule?tenant=<t>` (its token needs the
 * `schedule:read-all` scope when the service requires tokens; docs/schedule-api.md "The engine"). Lists come
 * in pages (docs/schedule-api.md "Pages"): the client follows `x-next-cursor` to the end, so it still
 * sees every channel and every entry of a range.
 */
import { z } from 'zod';
import { type FetchLike, fetchText } from '../../../core/fetch/bounded-fetch';
import { mediaOf, mediaShapeFields } from '../../../core/media-shape';

export interface ScheduleClientOptions {
  /** `{schedule_api_url}`, e.g. http://localhost:8090/api/v1. */
  apiUrl: string;
  /** Sent as `x-jwt: Bearer <token>` when the service requires authentication (a provider may refresh it). */
  token?: string | (() => Promise<string>);
  timeoutMs?: number;
  maxBytes?: number;
  fetch?: FetchLike;
}

export interface ScheduleSource {
  /** The service's change stamp: it moves after every change an engine must see. */
  changes(): Promise<number>;
  /** Every tenant's channels. */
  listChannels(): Promise<ScheduleChannel[]>;
  /** Entries of the tenant's channel overlapping [fromMs, toMs), ordered by start. */
  schedule(channelId: string, fromMs: number, toMs: number, tenant?: string): Promise<ScheduleEntry[]>;
  /** The LIVE entries of the tenant's channel that end after fromMs (no end), ordered by start. */
  liveEntries(channelId: string, fromMs: number, tenant?: string): Promise<ScheduleEntry[]>;
}

const version = z.number().int().nonnegative().optional();
const channelSchema = z
  .object({
    id: z.string(),
    tenant: z.string(),
    title: z.string(),
    ...mediaShapeFields,
    // Absent on channels written before the service kept them: the plug-in then reads once.
    scheduleVersion: version,
    liveVersion: version,
    adDelivery: z.enum(['spliced', 'interstitial']).optional(),
  })
  .passthrough();
const changesSchema = z.object({ stamp: z.number().int() });
const channelsSchema = z.array(channelSchema);
const entrySchema = z.object({
  id: z.string(),
  channelId: z.string(),
  title: z.string(),
  start_time: z.number(),
  end_time: z.number(),
  start: z.string(),
  end: z.string(),
  url: z.string(),
  duration: z.number(),
  type: z.enum(['VOD', 'LIVE']),
  /**
   * A VOD entry's ad breaks (docs/schedule-api.md "Ad breaks"). The service enforces their limits; a
   * limit here as well would turn a service that raised its own into schedules the engine cannot read.
   */
  adBreaks: z.array(z.object({ offset: z.number(), duration: z.number(), url: z.string() })).optional(),
});
const entriesSchema = z.array(entrySchema.passthrough());

/** A channel as the schedule API lists it (docs/schedule-api.md). */
export type ScheduleChannel = z.infer<typeof channelSchema>;
/** A schedule entry as the schedule API returns it: the plug-in's own view of the wire format. */
export type ScheduleEntry = z.infer<typeof entrySchema>;

export class ScheduleApiError extends Error {
  override name = 'ScheduleApiError';
}

/** Items asked for per page: the API's maximum, so a whole range is usually one request. */
const PAGE_LIMIT = 1000;
/** A list longer than this many pages is an API that never ends its cursor chain, not a real list. */
const MAX_PAGES = 100;

export function scheduleApiClient(options: ScheduleClientOptions): ScheduleSource {
  const base = options.apiUrl.replace(/\/+$/, '');
  const get = async <T>(path: string, schema: z.ZodType<T>): Promise<{ body: T; next?: string }> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = typeof options.token === 'function' ? await options.token() : options.token;
    if (token) headers['x-jwt'] = `Bearer ${token}`;
    const res = await fetchText(`${base}${path}`, {
      timeoutMs: options.timeoutMs ?? 3000,
      maxBytes: options.maxBytes ?? 8 * 1024 * 1024,
      headers,
      fetch: options.fetch,
    });
    if (res.status !== 200)
      throw new ScheduleApiError(`GET ${path}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      throw new ScheduleApiError(`GET ${path}: the answer is not JSON`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new ScheduleApiError(`GET ${path}: unexpected answer (${parsed.error.issues[0]?.message})`);
    return { body: parsed.data, next: res.headers.get('x-next-cursor') ?? undefined };
  };
  /** Every item of a paged list: the pages of `path?query` in order. */
  const getAll = async <T>(path: string, query: string, schema: z.ZodType<T[]>): Promise<T[]> => {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const params = [query, `limit=${PAGE_LIMIT}`, cursor && `cursor=${encodeURIComponent(cursor)}`];
      const page = await get(`${path}?${params.filter(Boolean).join('&')}`, schema);
      items.push(...page.body);
      if (!page.next) return items;
      cursor = page.next;
    }
    throw new ScheduleApiError(`GET ${path}: more than ${MAX_PAGES} pages`);
  };
  const entries = (channelId: string, query: string, tenant: string | undefined) =>
    getAll(
      `/channels/${encodeURIComponent(channelId)}/schedule`,
      tenant === undefined ? query : `tenant=${encodeURIComponent(tenant)}&${query}`,
      entriesSchema,
    ) as Promise<ScheduleEntry[]>;
  return {
    changes: async () => (await get('/changes', changesSchema)).body.stamp,
    listChannels: async () =>
      (await getAll('/channels', 'tenant=*', channelsSchema)).map(
        ({ id, tenant, title, scheduleVersion, liveVersion, adDelivery, ...rest }) => ({
          id,
          tenant,
          title,
          ...(adDelivery ? { adDelivery } : {}),
          // The channel's media settings travel on to the engine channel (schedule-channel-manager.ts).
          ...mediaOf(rest),
          ...(scheduleVersion === undefined ? {} : { scheduleVersion }),
          ...(liveVersion === undefined ? {} : { liveVersion }),
        }),
      ),
    schedule: (channelId, fromMs, toMs, tenant) =>
      entries(
        channelId,
        `start=${new Date(fromMs).toISOString()}&end=${new Date(toMs).toISOString()}`,
        tenant,
      ),
    liveEntries: (channelId, fromMs, tenant) =>
      entries(channelId, `type=LIVE&start=${new Date(fromMs).toISOString()}`, tenant),
  };
}
