/**
 * Lambda entry of the channel service: its configuration and signing-key location are read here,
 * once per container, when the module loads. `createChannelHandler` is exported for the local runner
 * (local/system.ts), which imports this module only after setting the environment.
 */

import { keyStoreFromEnv } from '../../core/auth/signing-key';
import { createChannelHandler } from './channel-api';
import { channelConfigFromEnv } from './config';

export { createChannelHandler };

export const handler = createChannelHandler(channelConfigFromEnv(), { keyStore: keyStoreFromEnv() });
