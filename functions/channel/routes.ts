/**
 * The channel service's HTTP surface (docs/channel-api.md). `/token` exists in the test stage only. Routes turn
 * the service's outcomes into HTTP (refusals.ts); errors become responses at the edge (core/http.ts).
 */

import { z } from 'zod';
import { badRequest } from '../../core/errors';
import { type SourceWarning, sourceWarnings } from '../../core/fetch/hls-probe';
import type { ApiRequest, Route } from '../../core/http';
import { json } from '../../core/http';
import { type ApiInfo, withOpenApi } from '../../core/openapi';
import { type PageLimits, pageResponse, readPage } from '../../core/paging';
import { parseWith } from '../../core/validation';
import { channelAsRunRoutes } from './asrun/asrun-routes';
import { channelIdSchema } from './channel-id';
import {
  createChannelSchema,
  patchChannelSchema,
  privateUrlField,
  probedSources,
  tokenRequestSchema,
} from './channel-schema';
import { createChannel, deleteChannel, getChannel, listChannels, updateChannel } from './channel-service';
import { createView, createViewSchema, listView, listViewSchema, statusesOf } from './channel-views';
import type { ChannelDeps } from './deps';
import { channelEpgRoutes } from './epg/epg-routes';
import { liveEventRoutes } from './live-event-routes';
import { createRefused, noSuchChannel, trialTokenRefused, updateRefused } from './refusals';
import { tenantPageKey } from './stores/channel-store';
import { issueTrialToken } from './trial-token';

export type GetDeps = () => Promise<ChannelDeps>;

/** `GET /channel?limit=`: docs/channel-api.md. */
export const CHANNEL_PAGES: PageLimits = { defaultLimit: 100, maxLimit: 1000 };

export const CHANNEL_API_INFO: ApiInfo = {
  title: 'onair channel service',
  version: '1',
  description: 'Channels (Loop and WebHook) and tokens: docs/channel-api.md',
};

const pageQuery = {
  limit: z.string().describe('page size, 1..1000 (default 100)'),
  cursor: z.string().describe('the `x-next-cursor` of the previous page'),
};

const trialTokenSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  tenant: z.string(),
  environment: z.literal('test'),
  maxChannels: z.number().int(),
});

/** 400 naming the first URL field on a private or loopback address, unless the deployment allows them. */
function refusePrivateUrls(deps: ChannelDeps, body: Parameters<typeof privateUrlField>[0]): void {
  const field = deps.config.allowPrivateUrls ? undefined : privateUrlField(body);
  if (field) throw badRequest(`${field}: must be a public address, not a private or loopback one`, field);
}

/** The answer with `warnings` when a source did not answer as HLS (channel-schema.ts probedSources). */
const withWarnings = <T extends object>(view: T, warnings: SourceWarning[]) =>
  warnings.length ? { ...view, warnings } : view;

const warningsSchema = z
  .array(z.object({ field: z.string(), code: z.string(), message: z.string() }))
  .optional()
  .describe(
    'the source URLs that did not answer as HLS: accepted, and the channel plays the slate until they do',
  );

export function channelRoutes(getDeps: GetDeps): Route[] {
  /** Deps for a request with a valid `x-jwt`, and who sent it. */
  const open = async (req: ApiRequest) => {
    const deps = await getDeps();
    return { deps, principal: await deps.tokens.authenticate(req.headers['x-jwt'], deps.config.stage) };
  };
  return withOpenApi(CHANNEL_API_INFO, [
    {
      method: 'POST',
      path: '/channel',
      doc: {
        summary: 'Create a channel',
        body: createChannelSchema,
        responses: {
          201: { description: 'the channel', schema: createViewSchema.extend({ warnings: warningsSchema }) },
          403: { description: 'the token has its maximum of channels (`channel_limit`)' },
          409: { description: 'the name is taken (by anyone in the deployment)' },
        },
        example: { body: { name: 'news', type: 'Loop', url: 'https://example.com/vod/master.m3u8' } },
      },
      handler: async (req) => {
        const { deps, principal } = await open(req);
        const body = parseWith(createChannelSchema, req.body);
        refusePrivateUrls(deps, body);
        const warnings = await sourceWarnings(probedSources(body), deps.probe);
        const outcome = await createChannel(deps, principal, body);
        if (!outcome.ok)
          throw createRefused(outcome, { name: body.name, maxChannels: principal.maxChannels });
        return json(201, withWarnings(createView(outcome.channel, deps.config.playbackBaseUrl), warnings));
      },
    },
    {
      method: 'GET',
      path: '/channel',
      doc: {
        summary: "The token's channels, a page at a time",
        query: pageQuery,
        responses: { 200: { description: 'a page of channels', schema: z.array(listViewSchema) } },
      },
      handler: async (req) => {
        const { deps, principal } = await open(req);
        const page = readPage(req.query, CHANNEL_PAGES, tenantPageKey(principal.tenant));
        const { items, next } = await listChannels(deps, principal, page);
        const statuses = await statusesOf(deps.status, items);
        return pageResponse(
          req,
          items.map((c, i) => listView(c, deps.config.playbackBaseUrl, statuses[i])),
          next,
        );
      },
    },
    {
      method: 'GET',
      path: '/channel/{id}',
      doc: {
        summary: 'A channel, with its status',
        params: { id: channelIdSchema },
        responses: { 200: { description: 'the channel', schema: createViewSchema } },
        example: { params: { id: 'trial_0000-news' } },
      },
      handler: async (req) => {
        const { deps, principal } = await open(req);
        const id = parseWith(channelIdSchema, req.params.id, 'id');
        const channel = await getChannel(deps, principal, id);
        if (!channel) throw noSuchChannel(id);
        const [status] = await statusesOf(deps.status, [channel]);
        return json(200, createView(channel, deps.config.playbackBaseUrl, status));
      },
    },
    {
      method: 'PATCH',
      path: '/channel/{id}',
      doc: {
        summary: "Change a channel's source, preroll or media settings (from its next item on)",
        params: { id: channelIdSchema },
        body: patchChannelSchema,
        responses: {
          200: {
            description: 'the channel as changed',
            schema: createViewSchema.extend({ warnings: warningsSchema }),
          },
        },
        example: {
          params: { id: 'trial_0000-news' },
          body: { url: 'https://example.com/vod/other.m3u8' },
        },
      },
      handler: async (req) => {
        const { deps, principal } = await open(req);
        const id = parseWith(channelIdSchema, req.params.id, 'id');
        const patch = parseWith(patchChannelSchema, req.body);
        refusePrivateUrls(deps, patch);
        const outcome = await updateChannel(deps, principal, id, patch);
        if (!outcome.ok) throw updateRefused(outcome, id);
        const { channel } = outcome;
        const [warnings, [status]] = await Promise.all([
          sourceWarnings(
            probedSources({ type: channel.type, url: patch.url ?? channel.url, opts: patch.opts }),
            deps.probe,
          ),
          statusesOf(deps.status, [channel]),
        ]);
        return json(200, withWarnings(createView(channel, deps.config.playbackBaseUrl, status), warnings));
      },
    },
    {
      method: 'DELETE',
      path: '/channel/{id}',
      doc: {
        summary: 'Delete a channel',
        params: { id: channelIdSchema },
        responses: { 204: { description: 'deleted' } },
        example: { params: { id: 'trial_0000-news' } },
      },
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
      doc: {
        summary: 'A trial token (test stage only)',
        auth: 'none',
        body: tokenRequestSchema,
        responses: {
          201: { description: 'the token', schema: trialTokenSchema },
          429: { description: 'too many tokens for this address or email' },
        },
        example: { body: { company: 'Acme', email: 'dev@acme.example' } },
      },
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
      doc: {
        summary: 'The public keys that verify tokens (JWKS)',
        tag: 'tokens',
        auth: 'none',
        responses: {
          200: { description: 'JWKS', schema: z.object({ keys: z.array(z.record(z.unknown())) }) },
        },
      },
      handler: async () =>
        json(200, await (await getDeps()).tokens.jwks(), { 'cache-control': 'public, max-age=300' }),
    },
    ...channelEpgRoutes(open),
    ...channelAsRunRoutes(open),
  ]);
}
