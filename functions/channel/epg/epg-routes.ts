/**
 * `GET /channel/{id}/epg.json` and `epg.xml`: a channel-service channel has no schedule, so its guide is
 * its playout: the items the engine logged for it (by default what played in the last hour, what plays
 * now, and what it has already appended next: its lookahead, usually one item; `?date=` or
 * `?start=&end=` for another range, as on the schedule API). docs/epg.md says the limits.
 */
import { z } from 'zod';
import type { Principal } from '../../../core/auth/tokens';
import { type EpgChannel, toEpg, toXmltv } from '../../../core/epg/epg';
import { scheduleRange } from '../../../core/epg/time-range';
import type { ApiRequest, ApiResponse, Route } from '../../../core/http';
import { json } from '../../../core/http';
import { parseWith } from '../../../core/validation';
import { channelIdSchema } from '../channel-id';
import { ownChannelName } from '../channel-service';
import type { ChannelDeps } from '../deps';
import { noSuchChannel } from '../refusals';
import { playoutProgrammes } from './playout-programmes';

/** How far back the guide goes by default. */
export const PLAYOUT_EPG_PAST_MS = 3_600_000;
/** The longest `?start=&end=` range (the log keeps a day anyway). */
export const PLAYOUT_EPG_MAX_DAYS = 7;

type Open = (req: ApiRequest) => Promise<{ deps: ChannelDeps; principal: Principal }>;

export function channelEpgRoutes(open: Open): Route[] {
  const build = async (req: ApiRequest) => {
    const { deps, principal } = await open(req);
    const id = parseWith(channelIdSchema, req.params.id, 'id');
    const name = ownChannelName(principal, id);
    const channel = name === undefined ? undefined : await deps.channels.get(name);
    if (!channel || channel.tenant !== principal.tenant) throw noSuchChannel(id);
    const now = deps.now();
    const asked = ['date', 'start', 'end'].some((k) => req.query[k] !== undefined);
    const range = asked
      ? scheduleRange(req.query, now, PLAYOUT_EPG_MAX_DAYS)
      : { fromMs: now - PLAYOUT_EPG_PAST_MS, toMs: Number.MAX_SAFE_INTEGER };
    const items = await deps.playout.between(channel.name, range.fromMs, range.toMs);
    const programmes = playoutProgrammes(items, range, channel.createdAt);
    const to = asked ? range.toMs : Math.max(now, ...programmes.map((i) => i.end_time));
    const epgChannel: EpgChannel = { id: channel.name, title: channel.name };
    return toEpg(epgChannel, range.fromMs, to, programmes);
  };
  const doc = (summary: string, schema: z.ZodTypeAny, contentType?: string) => ({
    summary,
    tag: 'channel',
    params: { id: channelIdSchema },
    query: {
      date: z.string().describe('a UTC day, YYYY-MM-DD'),
      start: z.string().describe('ISO 8601 instant with a zone'),
      end: z.string().describe('ISO 8601 instant with a zone (exclusive)'),
    },
    responses: {
      200: {
        description: 'the playout of the range (default: the last hour and what is planned next)',
        schema,
        contentType,
      },
    },
    example: { params: { id: 'trial_0000-news' } },
  });
  return [
    {
      method: 'GET',
      path: '/channel/{id}/epg.xml',
      doc: doc("The channel's playout as XMLTV", z.string(), 'application/xml'),
      handler: async (req): Promise<ApiResponse> => ({
        status: 200,
        headers: { 'content-type': 'application/xml; charset=utf-8' },
        rawBody: toXmltv(await build(req)),
      }),
    },
    {
      method: 'GET',
      path: '/channel/{id}/epg.json',
      doc: doc("The channel's playout as JSON", z.object({ programmes: z.array(z.record(z.unknown())) })),
      handler: async (req) => json(200, await build(req)),
    },
  ];
}
