/**
 * `GET /api/v1/channels/{id}/asrun`: what a schedule channel aired (docs/asrun.md), read from the
 * as-run table the engine tasks write under the channel's engine id (playback-id.ts). Tenancy as the
 * channel's other reads (`?tenant=` with the read-all scope).
 */
import { asRunDoc, asRunResponse } from '../../../core/asrun/asrun-routes';
import { notFound } from '../../../core/errors';
import type { Route } from '../../../core/http';
import { playbackChannelId } from '../playback-id';
import type { EpgRouteContext } from './epg-routes';
import { scheduleId } from './schemas';

export function scheduleAsRunRoutes(ctx: EpgRouteContext): Route[] {
  return [
    {
      method: 'GET',
      path: `${ctx.prefix}/channels/{id}/asrun`,
      doc: asRunDoc(scheduleId, 'channels', 'news'),
      handler: async (req) => {
        const { deps, caller, tenant: own } = await ctx.open(req);
        const tenant = ctx.readTenant(req, caller, own, false);
        const id = ctx.pathId(req);
        if (!(await deps.channels.get(tenant, id))) throw notFound(`channel ${id} not found`);
        return asRunResponse(req, deps.asRun, playbackChannelId(tenant, id), deps.clock());
      },
    },
  ];
}
