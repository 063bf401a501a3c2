/** Lambda entry of the channel service: builds its dependencies once per container, then routes. */

import { keyStoreFromEnv, loadOrCreateSigningKey } from '../../core/auth/signing-key';
import { TokenService } from '../../core/auth/tokens';
import { documentClient, sqsClient } from '../../core/aws';
import { createApiHandler } from '../../core/http';
import { queues, queueUrl } from '../../core/resources';
import { ChannelEvents } from './channel-events';
import { ChannelService } from './channel-service';
import { ChannelStore } from './channel-store';
import { type ChannelConfig, channelConfigFromEnv } from './config';
import { RateLimiter } from './rate-limiter';
import { type ChannelApi, channelRoutes } from './routes';

export async function buildChannelApi(config: ChannelConfig): Promise<ChannelApi> {
  const tokens = await TokenService.fromJwk(await loadOrCreateSigningKey(keyStoreFromEnv()));
  const ddb = documentClient();
  const service = new ChannelService({
    config,
    tokens,
    store: new ChannelStore(ddb),
    events: new ChannelEvents(sqsClient(), queueUrl(queues.channelEvents)),
    rateLimiter: new RateLimiter(ddb),
  });
  return { service, tokens, config };
}

export function createChannelHandler(config: ChannelConfig = channelConfigFromEnv()) {
  let api: Promise<ChannelApi> | undefined;
  const lazyApi = () => {
    api ??= buildChannelApi(config).catch((err) => {
      api = undefined; // a failed cold start (e.g. SSM unreachable) is retried on the next request
      throw err;
    });
    return api;
  };
  return createApiHandler(channelRoutes(lazyApi), { stage: config.stage });
}

export const handler = createChannelHandler();
