/**
 * The schedule service's HTTP surface (docs/schedule-api.md), under /api/v1. Every request passes the
 * authentication hook first and is scoped to its tenant: the token's subject when tokens are required,
 * the host it was sent to in the open local mode. The two reads the engine needs take `?tenant=`
 * (`*` = every tenant for the channel list), allowed to a `schedule:read-all` token and in local mode.
 */
import { z } from 'zod';
import { type StatusFields, statusView } from '../../../core/channel-status/status';
import { badRequest, conflict, forbidden, notFound } from '../../../core/errors';
import { type ApiRequest, json, type Route } from '../../../core/http';
import { logger } from '../../../core/logger';
import { mediaOf } from '../../../core/media-shape';
import { type ApiInfo, withOpenApi } from '../../../core/openapi';
import { type PageLimits, pageResponse, readPage } from '../../../core/paging';
import { parseWith } from '../../../core/validation';
import type { ScheduleApiDeps } from '../deps';
import type { Feed, ScheduleChannel, StoredFeed } from '../model';
import { playbackChannelId, playbackUrl } from '../playback-id';
import type { ListedChannel } from '../stores/channel-store';
import { anyTenantIdPageKey, tenantIdPageKey } from '../stores/page-keys';
import { scheduleAsRunRoutes } from './asrun-routes';
import type { Caller } from './auth';
import { READ_ALL_SCOPE } from './auth';
import { entryRoutes } from './entry-routes';
import { epgRoutes } from './epg-routes';
import {
  changesSchema,
  channelViewSchema,
  createChannelSchema,
  createFeedSchema,
  feedViewSchema,
  pageQuery,
  scheduleId,
} from './schemas';
import { bodyTenant, checkTenant, requestTenant } from './tenant';

export const API_PREFIX = '/api/v1';

/** `?limit=` of the channel and auto-scheduler lists, and of a schedule (docs/schedule-api.md). */
export const LIST_PAGES: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
export { SCHEDULE_PAGES } from './entry-routes';

export const SCHEDULE_API_INFO: ApiInfo = {
  title: 'onair schedule service',
  version: '1',
  description: 'Schedule channels, their schedules and EPG, auto-schedulers: docs/schedule-api.md',
};

const idParam = { id: scheduleId };
const tenantQuery = { tenant: z.string().describe('another tenant (schedule:read-all tokens)') };

type GetDeps = () => ScheduleApiDeps | Promise<ScheduleApiDeps>;

/** What the API shows of an auto-scheduler: the stored request, plus the state of its last read. */
export function feedView(feed: StoredFeed): Feed & { status?: Record<string, unknown> } {
  const view: Feed & { status?: Record<string, unknown> } = {
    id: feed.id,
    tenant: feed.tenant,
    url: feed.url,
    channelId: feed.channelId,
    config: { scheduleRetention: feed.config.scheduleRetention },
  };
  if (feed.fetchedAt !== undefined) {
    view.status = {
      lastReadAt: new Date(feed.fetchedAt).toISOString(),
      entries: feed.items?.length ?? 0,
      ...(feed.lastError ? { lastError: feed.lastError } : {}),
    };
  }
  return view;
}

export function createScheduleRoutes(getDeps: GetDeps): Route[] {
  /** Deps for an authenticated request, and its tenant. */
  const open = async (req: ApiRequest) => {
    const deps = await getDeps();
    const caller = await deps.authenticate(req);
    return { deps, caller, tenant: requestTenant(req, caller) };
  };
  /**
   * The tenant a read names with `?tenant=` (`*` only where `all` is allowed), else the caller's own.
   * Another tenant than one's own needs the read-all scope (or local mode, where any Host is anyone's).
   */
  const readTenant = (req: ApiRequest, caller: Caller | undefined, own: string, all: boolean) => {
    const asked = req.query.tenant;
    if (asked === undefined) return own;
    const wanted = asked === '*' && all ? '*' : checkTenant(asked, 'tenant');
    if (wanted !== own && caller && !caller.readAll)
      throw forbidden('tenant_not_allowed', 'this token may read its own tenant only');
    return wanted;
  };
  const view = (deps: ScheduleApiDeps, c: ListedChannel, status?: StatusFields) => ({
    id: c.id,
    tenant: c.tenant,
    title: c.title,
    ...mediaOf(c),
    ...(c.adDelivery ? { adDelivery: c.adDelivery } : {}),
    playback: playbackUrl(deps.playbackBaseUrl, c.tenant, c.id),
    ...(c.scheduleVersion === undefined ? {} : { scheduleVersion: c.scheduleVersion }),
    ...(c.liveVersion === undefined ? {} : { liveVersion: c.liveVersion }),
    ...status,
  });
  /** The channels with the status the engine wrote for each (core/channel-status/). */
  const withStatus = async (deps: ScheduleApiDeps, channels: ListedChannel[]) => {
    const records = await deps.status.read(channels.map((c) => playbackChannelId(c.tenant, c.id)));
    return channels.map((c) =>
      view(deps, c, statusView(records.get(playbackChannelId(c.tenant, c.id)), c.createdAt)),
    );
  };
  /** The `{id}` of the path, checked by the same rule as body ids before it reaches a store. */
  const pathId = (req: ApiRequest): string => parseWith(scheduleId, req.params.id, 'id');

  return withOpenApi(SCHEDULE_API_INFO, [
    {
      method: 'GET',
      path: `${API_PREFIX}/changes`,
      doc: {
        summary: `The change stamp: it moves after every change an engine must see (${READ_ALL_SCOPE} tokens)`,
        tag: 'engine',
        responses: { 200: { description: 'the stamp', schema: changesSchema } },
      },
      handler: async (req) => {
        const { deps, caller } = await open(req);
        // It moves with every tenant's writes: only the engine (or local mode) may watch it.
        if (caller && !caller.readAll)
          throw forbidden('tenant_not_allowed', `the change stamp needs the ${READ_ALL_SCOPE} scope`);
        return json(200, { stamp: await deps.changes.read() }, { 'cache-control': 'no-store' });
      },
    },
    {
      method: 'POST',
      path: `${API_PREFIX}/channels`,
      doc: {
        summary: 'Create a schedule channel',
        tag: 'channels',
        body: createChannelSchema,
        responses: {
          201: { description: 'the channel', schema: channelViewSchema },
          409: { description: 'the id is taken' },
        },
        example: { body: { id: 'news', title: 'News' } },
      },
      handler: async (req) => {
        const { deps, tenant } = await open(req);
        const body = parseWith(createChannelSchema, req.body);
        const channel: ScheduleChannel = {
          id: body.id,
          tenant: bodyTenant(tenant, body.tenant),
          title: body.title,
          ...mediaOf(body),
          ...(body.adDelivery ? { adDelivery: body.adDelivery } : {}),
        };
        if (!(await deps.channels.create(channel, deps.clock())))
          throw conflict(`channel ${channel.id} already exists`);
        return json(
          201,
          view(deps, { ...channel, scheduleVersion: 0, liveVersion: 0 }, statusView(undefined)),
        );
      },
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/channels`,
      doc: {
        summary: "The tenant's channels (`?tenant=*`: every tenant's, read-all tokens)",
        tag: 'channels',
        query: { ...pageQuery, ...tenantQuery },
        responses: { 200: { description: 'a page of channels', schema: z.array(channelViewSchema) } },
      },
      handler: async (req) => {
        const { deps, caller, tenant: own } = await open(req);
        const tenant = readTenant(req, caller, own, true);
        const { items, next } =
          tenant === '*'
            ? await deps.channels.listAll(readPage(req.query, LIST_PAGES, anyTenantIdPageKey))
            : await deps.channels.list(tenant, readPage(req.query, LIST_PAGES, tenantIdPageKey(tenant)));
        // Every tenant's list is the engine's feed: its statuses would cost a read per channel on
        // every poll, so it carries none (docs/schedule-api.md).
        return pageResponse(
          req,
          tenant === '*' ? items.map((c) => view(deps, c)) : await withStatus(deps, items),
          next,
        );
      },
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/channels/{id}`,
      doc: {
        summary: 'A channel',
        tag: 'channels',
        params: idParam,
        responses: { 200: { description: 'the channel', schema: channelViewSchema } },
        example: { params: { id: 'news' } },
      },
      handler: async (req) => {
        const { deps, tenant } = await open(req);
        const id = pathId(req);
        const channel = await deps.channels.get(tenant, id);
        if (!channel) throw notFound(`channel ${id} not found`);
        return json(200, (await withStatus(deps, [channel]))[0]);
      },
    },
    {
      method: 'DELETE',
      path: `${API_PREFIX}/channels/{id}`,
      doc: {
        summary: 'Delete a channel, its schedule and its auto-scheduler',
        tag: 'channels',
        params: idParam,
        responses: { 204: { description: 'deleted' } },
        example: { params: { id: 'news' } },
      },
      handler: async (req) => {
        const { deps, tenant } = await open(req);
        const id = pathId(req);
        // The channel item goes first: from then on no scheduler run can write to its schedule.
        if (!(await deps.channels.remove(tenant, id))) throw notFound(`channel ${id} not found`);
        await deps.feeds.removeForChannel(tenant, id);
        await deps.entries.deleteAll(tenant, id);
        return json(204);
      },
    },
    ...entryRoutes({ prefix: API_PREFIX, open, readTenant, pathId }),
    {
      method: 'POST',
      path: `${API_PREFIX}/mrss`,
      doc: {
        summary: 'Create an auto-scheduler: fill a channel from an Atom feed',
        tag: 'auto-schedulers',
        body: createFeedSchema,
        responses: {
          201: { description: 'the auto-scheduler', schema: feedViewSchema.omit({ status: true }) },
          409: { description: 'the id is taken, or the channel has one' },
        },
        example: { body: { id: 'news-feed', url: 'https://example.com/feed.atom', channelId: 'news' } },
      },
      handler: async (req) => {
        const { deps, tenant } = await open(req);
        const body = parseWith(createFeedSchema, req.body);
        const feed: Feed = {
          id: body.id,
          tenant: bodyTenant(tenant, body.tenant),
          url: body.url,
          channelId: body.channelId,
          config: { scheduleRetention: body.config?.scheduleRetention ?? deps.defaultRetentionHours },
        };
        const result = await deps.feeds.create(feed, deps.clock());
        if (result === 'exists') throw conflict(`auto-scheduler ${feed.id} already exists`);
        if (result === 'channel-has-feed')
          throw conflict(`channel ${feed.channelId} already has an auto-scheduler`);
        if (result === 'no-channel')
          throw badRequest(`channel ${feed.channelId} does not exist`, 'channelId');
        await deps.fillNow({ tenant: feed.tenant, id: feed.id }).catch((err) =>
          logger.warn('first fill of a new auto-scheduler failed; the timer retries', {
            err,
            feedId: feed.id,
          }),
        );
        return json(201, feed);
      },
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/mrss`,
      doc: {
        summary: "The tenant's auto-schedulers",
        tag: 'auto-schedulers',
        query: pageQuery,
        responses: { 200: { description: 'a page of auto-schedulers', schema: z.array(feedViewSchema) } },
      },
      handler: async (req) => {
        const { deps, tenant } = await open(req);
        const { items, next } = await deps.feeds.list(
          tenant,
          readPage(req.query, LIST_PAGES, tenantIdPageKey(tenant)),
        );
        return pageResponse(req, items.map(feedView), next);
      },
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/mrss/{id}`,
      doc: {
        summary: 'An auto-scheduler and the state of its last read',
        tag: 'auto-schedulers',
        params: idParam,
        responses: { 200: { description: 'the auto-scheduler', schema: feedViewSchema } },
        example: { params: { id: 'news-feed' } },
      },
      handler: async (req) => {
        const { deps, tenant } = await open(req);
        const id = pathId(req);
        const feed = await deps.feeds.get(tenant, id);
        if (!feed) throw notFound(`auto-scheduler ${id} not found`);
        return json(200, feedView(feed));
      },
    },
    {
      method: 'DELETE',
      path: `${API_PREFIX}/mrss/{id}`,
      doc: {
        summary: 'Delete an auto-scheduler (the schedule it made stays)',
        tag: 'auto-schedulers',
        params: idParam,
        responses: { 204: { description: 'deleted' } },
        example: { params: { id: 'news-feed' } },
      },
      handler: async (req) => {
        const { deps, tenant } = await open(req);
        const id = pathId(req);
        if (!(await deps.feeds.remove(tenant, id))) throw notFound(`auto-scheduler ${id} not found`);
        return json(204);
      },
    },
    ...epgRoutes({ prefix: API_PREFIX, open, readTenant, pathId }),
    ...scheduleAsRunRoutes({ prefix: API_PREFIX, open, readTenant, pathId }),
  ]);
}
