/**
 * A channel's live events (docs/channel-api.md, docs/live-mixing.md): `POST/GET /channel/{id}/events`,
 * `DELETE /channel/{id}/events/{eventId}`, on the caller's own channels only (another tenant's channel
 * is a 404, as for DELETE /channel/{id}). The events live on the channel's record; the engine fleet
 * reads them with the channel and switches the channel to each source in time.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Principal } from '../../core/auth/tokens';
import { badRequest, conflict } from '../../core/errors';
import { isLiteralPrivateUrl } from '../../core/fetch/url-guard';
import { type ApiRequest, json, type Route } from '../../core/http';
import { parseWith } from '../../core/validation';
import { channelIdSchema } from './channel-id';
import { createLiveEventSchema, MAX_LIVE_EVENTS } from './channel-schema';
import { ownChannelName } from './channel-service';
import type { ChannelDeps } from './deps';
import type { LiveEvent } from './model';
import { noSuchChannel } from './refusals';

/** An event as the API answers it (docs/channel-api.md). */
const liveEventSchema = z.object({
  id: z.string(),
  url: z.string(),
  start_time: z.number().int().describe('Unix milliseconds'),
  end_time: z.number().int().describe('Unix milliseconds'),
  start: z.string().describe('ISO 8601 UTC'),
  end: z.string().describe('ISO 8601 UTC'),
});
const EXAMPLE_CHANNEL = { id: 'trial_0000-news' };

type Open = (req: ApiRequest) => Promise<{ deps: ChannelDeps; principal: Principal }>;

export function liveEventRoutes(open: Open): Route[] {
  /** The caller's channel of the path: its id, name and record (404 for anything else). */
  const ownChannel = async (req: ApiRequest) => {
    const { deps, principal } = await open(req);
    const id = parseWith(channelIdSchema, req.params.id, 'id');
    const name = ownChannelName(principal, id);
    const channel = name === undefined ? undefined : await deps.channels.get(name);
    if (!channel || channel.tenant !== principal.tenant) throw noSuchChannel(id);
    return { deps, principal, id, channel };
  };
  return [
    {
      method: 'POST',
      path: '/channel/{id}/events',
      doc: {
        summary: "Add a live event to one of the token's channels",
        params: { id: channelIdSchema },
        body: createLiveEventSchema,
        responses: {
          201: { description: 'the event', schema: liveEventSchema },
          409: { description: `the channel has its maximum of ${MAX_LIVE_EVENTS} events` },
        },
        example: {
          params: EXAMPLE_CHANNEL,
          body: {
            url: 'https://example.com/live/master.m3u8',
            start: '2030-01-01T20:00:00Z',
            end: '2030-01-01T21:45:00Z',
          },
        },
      },
      handler: async (req) => {
        const body = parseWith(createLiveEventSchema, req.body);
        const { deps, principal, id, channel } = await ownChannel(req);
        if (!deps.config.allowPrivateUrls && isLiteralPrivateUrl(body.url))
          throw badRequest('url: must be a public address, not a private or loopback one', 'url');
        const startMs = Date.parse(body.start);
        const endMs = Date.parse(body.end);
        const event: LiveEvent = {
          id: randomUUID(),
          url: body.url,
          start_time: startMs,
          end_time: endMs,
          start: new Date(startMs).toISOString(),
          end: new Date(endMs).toISOString(),
        };
        if (!(await deps.channels.addEvent(principal.tenant, channel.name, event, MAX_LIVE_EVENTS)))
          throw conflict(`channel ${id} already has ${MAX_LIVE_EVENTS} events (or was deleted)`);
        return json(201, event);
      },
    },
    {
      method: 'GET',
      path: '/channel/{id}/events',
      doc: {
        summary: "A channel's live events",
        params: { id: channelIdSchema },
        responses: { 200: { description: 'the events', schema: z.array(liveEventSchema) } },
        example: { params: EXAMPLE_CHANNEL },
      },
      handler: async (req) => {
        const { channel } = await ownChannel(req);
        return json(200, channel.events ?? []);
      },
    },
    {
      method: 'DELETE',
      path: '/channel/{id}/events/{eventId}',
      doc: {
        summary: 'Remove a live event',
        params: { id: channelIdSchema, eventId: z.string() },
        responses: { 204: { description: 'removed' } },
        example: { params: { ...EXAMPLE_CHANNEL, eventId: '00000000-0000-4000-8000-000000000000' } },
      },
      handler: async (req) => {
        const { deps, principal, id, channel } = await ownChannel(req);
        const eventId = req.params.eventId ?? '';
        const index = (channel.events ?? []).findIndex((e) => e.id === eventId);
        if (index < 0 || !(await deps.channels.removeEvent(principal.tenant, channel.name, index, eventId)))
          throw noSuchChannel(`${id} event ${eventId}`);
        return json(204);
      },
    },
  ];
}
