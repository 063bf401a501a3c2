/**
 * `GET /channel/{id}/asrun`: what a channel-service channel aired (docs/asrun.md), read from the
 * as-run table the engine tasks write under the channel's name. Same ownership as every per-channel
 * route: another tenant's channel, or none, is a 404.
 */

import { asRunDoc, asRunResponse } from '../../../core/asrun/asrun-routes';
import type { Principal } from '../../../core/auth/tokens';
import type { ApiRequest, Route } from '../../../core/http';
import { parseWith } from '../../../core/validation';
import { channelIdSchema } from '../channel-id';
import { ownChannelName } from '../channel-service';
import type { ChannelDeps } from '../deps';
import { noSuchChannel } from '../refusals';

type Open = (req: ApiRequest) => Promise<{ deps: ChannelDeps; principal: Principal }>;

export function channelAsRunRoutes(open: Open): Route[] {
  return [
    {
      method: 'GET',
      path: '/channel/{id}/asrun',
      doc: asRunDoc(channelIdSchema, 'channel', 'trial-0000.news'),
      handler: async (req) => {
        const { deps, principal } = await open(req);
        const id = parseWith(channelIdSchema, req.params.id, 'id');
        const name = ownChannelName(principal, id);
        const channel = name === undefined ? undefined : await deps.channels.get(name);
        if (!channel || channel.tenant !== principal.tenant) throw noSuchChannel(id);
        return asRunResponse(req, deps.asRun, channel.name, deps.now());
      },
    },
  ];
}
