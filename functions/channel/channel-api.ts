/**
 * The channel service as a Lambda handler: routes behind the shared HTTP edge (core/http.ts, where
 * every error becomes a response). Dependencies are built on the first request, because loading the
 * signing key is I/O (SSM in AWS), and built once per container.
 */

import { type KeyStore, keyStoreFromEnv } from '../../core/auth/signing-key';
import { createApiHandler } from '../../core/http';
import { type ChannelConfig, channelConfigFromEnv } from './config';
import { buildChannelDeps, type ChannelDeps } from './deps';
import { channelRoutes } from './routes';

export interface ChannelHandlerOptions {
  /** Default: JWT_KEY_PARAMETER / JWT_KEY_FILE, read now. */
  keyStore?: KeyStore;
  /** Default: the wall clock. */
  now?: () => number;
}

export function createChannelHandler(
  config: ChannelConfig = channelConfigFromEnv(),
  options: ChannelHandlerOptions = {},
) {
  const depsOptions = { keyStore: options.keyStore ?? keyStoreFromEnv(), now: options.now };
  let deps: Promise<ChannelDeps> | undefined;
  const getDeps = () => {
    deps ??= buildChannelDeps(config, depsOptions).catch((err) => {
      deps = undefined; // a failed cold start (e.g. SSM unreachable) is retried on the next request
      throw err;
    });
    return deps;
  };
  return createApiHandler(channelRoutes(getDeps), { stage: config.stage });
}
