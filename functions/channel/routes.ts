/**
 * The channel service's HTTP surface (docs/channel-api.md). `/token` exists in the test stage only. Routes turn
 * the service's outcomes into HTTP (refusals.ts); errors become responses at the edge (core/http.ts).
 */

import { badRequest } from '../../core/errors';
import type { ApiRequest, Route } from '../../core/http';
import { json } from '../../core/http';
import { type PageLimits, pageResponse, readPage } from '../../core/paging';
import { parseWith } from '../../core/validation';
import { channelIdSchema } from './channel-id';
import { createChannelSchema, privateUrlField, tokenRequestSchema } from './channel-schema';
import { createChannel, deleteChannel, listChannels } from './channel-service';
import { createView, listView } from './channel-views';
import type { ChannelDeps } from './deps';
import { liveEventRoutes } from './live-event-routes';
import { createRefused, noSuchChannel, trialTokenRefused } from './refusals';
import { tenantPageKey } from './stores/channel-store';
import { issueTrialToken } from './trial-token';

export type GetDeps = () => Promise<ChannelDeps>;

/** `GET /channel?limit=`: docs/channel-api.md. */
export const CHANNEL_PAGES: PageLimits = { defaultLimit: 100, maxLimit: 1000 };

export function channelRoutes(getDeps: GetDeps): Route[] {
  /** Deps for a request with a valid `x-jwt`, and who sent it. */
  const open = async (req: ApiRequest) => {
    const deps = await getDeps();
    return { deps, principal: await deps.tokens.authenticate(req.headers['x-jwt'], deps.config.stage) };
  };
  return [
    {
      method: 'POST',
      path: '/channel',
      handler: async (req) => {
        const { deps, principal } = await open(req);
        const body = parseWith(createChannelSchema, req.body);
        const privateField = deps.config.allowPrivateUrls ? undefined : privateUrlField(body);
        if (privateField)
          throw badRequest(
            `${privateField}: must be a public address, not a private or loopback one`,
            privateField,
          );
        const outcome = await createChannel(deps, principal, body);
        if (!outcome.ok)
          throw createRefused(outcome, { name: body.name, maxChannels: principal.maxChannels });
        return json(201, createView(outcome.channel, deps.config.playbackBaseUrl));
      },
    },
    {
      method: 'GET',
      path: '/channel',
      handler: async (req) => {
        const { deps, principal } = await open(req);
        const page = readPage(req.query, CHANNEL_PAGES, tenantPageKey(principal.tenant));
        const { items, next } = await listChannels(deps, principal, page);
        return pageResponse(
          req,
          items.map((c) => listView(c, deps.config.playbackBaseUrl)),
          next,
        );
      },
    },
    {
      method: 'DELETE',
      path: '/channel/{id}',
      handler: async (req) => {
        const { deps, principal } = await open(req);
        const id = parseWith(channelIdSchema, req.params.id, 'id');
        if (!(await deleteChannel(deps, principal, id))) throw noSuchChannel(id);
        return json(204);
      },
    },
    ...liveEventRoutes(open),
    {
      method: 'POST',
      path: '/token',
      stages: ['test'],
      handler: async (req) => {
        const deps = await getDeps();
        const outcome = await issueTrialToken(deps, parseWith(tokenRequestSchema, req.body), req.sourceIp);
        if (!outcome.ok) throw trialTokenRefused(outcome);
        return json(201, outcome.token);
      },
    },
    {
      method: 'GET',
      path: '/.well-known/jwks.json',
      handler: async () =>
        json(200, await (await getDeps()).tokens.jwks(), { 'cache-control': 'public, max-age=300' }),
    },
  ];
}
