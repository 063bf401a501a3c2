/**
 * The engine plugin's view of the schedule service: its public HTTP API, so an engine can run
 * anywhere the API is reachable. Bounded like every other fetch (timeout, size); answers are
 * checked with zod before anything trusts them. The tenant is the host of the API URL.
 */
import { z } from 'zod';
import { type FetchLike, fetchText } from '../../../core/fetch/bounded-fetch';

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
  listChannels(): Promise<ScheduleChannel[]>;
  /** Entries overlapping [fromMs, toMs), ordered by start. */
  schedule(channelId: string, fromMs: number, toMs: number): Promise<ScheduleEntry[]>;
}

const channelSchema = z.object({ id: z.string(), tenant: z.string(), title: z.string() }).passthrough();
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
  type: z.literal('VOD'),
});
const entriesSchema = z.array(entrySchema.passthrough());

/** A channel as the schedule API lists it (docs/schedule-api.md). */
export type ScheduleChannel = z.infer<typeof channelSchema>;
/** A schedule entry as the schedule API returns it: the plug-in's own view of the wire format. */
export type ScheduleEntry = z.infer<typeof entrySchema>;

export class ScheduleApiError extends Error {
  override name = 'ScheduleApiError';
}

export function scheduleApiClient(options: ScheduleClientOptions): ScheduleSource {
  const base = options.apiUrl.replace(/\/+$/, '');
  const get = async <T>(path: string, schema: z.ZodType<T>): Promise<T> => {
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
    return parsed.data;
  };
  return {
    listChannels: async () =>
      (await get('/channels', channelsSchema)).map(({ id, tenant, title }) => ({ id, tenant, title })),
    schedule: (channelId, fromMs, toMs) => {
      const query = `start=${new Date(fromMs).toISOString()}&end=${new Date(toMs).toISOString()}`;
      return get(`/channels/${encodeURIComponent(channelId)}/schedule?${query}`, entriesSchema) as Promise<
        ScheduleEntry[]
      >;
    },
  };
}
