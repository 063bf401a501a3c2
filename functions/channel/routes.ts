/** The channel service's HTTP surface (seed 000 A). `/token` exists in the test stage only. */

import type { TokenService } from '../../core/auth/tokens';
import type { Route } from '../../core/http';
import { json } from '../../core/http';
import { parseWith } from '../../core/validation';
import { createChannelSchema, tokenRequestSchema } from './channel-schema';
import type { ChannelService } from './channel-service';
import type { ChannelConfig } from './config';

export interface ChannelApi {
  service: ChannelService;
  tokens: TokenService;
  config: ChannelConfig;
}

export function channelRoutes(api: () => Promise<ChannelApi>): Route[] {
  const authenticated = async (headers: Record<string, string>) => {
    const { service, tokens, config } = await api();
    return { service, principal: await tokens.authenticate(headers['x-jwt'], config.stage) };
  };
  return [
    {
      method: 'POST',
      path: '/channel',
      handler: async (req) => {
        const { service, principal } = await authenticated(req.headers);
        return json(201, await service.create(principal, parseWith(createChannelSchema, req.body)));
      },
    },
    {
      method: 'GET',
      path: '/channel',
      handler: async (req) => {
        const { service, principal } = await authenticated(req.headers);
        return json(200, await service.list(principal));
      },
    },
    {
      method: 'DELETE',
      path: '/channel/{id}',
      handler: async (req) => {
        const { service, principal } = await authenticated(req.headers);
        await service.delete(principal, req.params.id!);
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      path: '/token',
      stages: ['test'],
      handler: async (req) => {
        const { service } = await api();
        return json(
          201,
          await service.issueTrialToken(parseWith(tokenRequestSchema, req.body), req.sourceIp),
        );
      },
    },
    {
      method: 'GET',
      path: '/.well-known/jwks.json',
      handler: async () => json(200, (await api()).tokens.jwks(), { 'cache-control': 'public, max-age=300' }),
    },
  ];
}
