/** The channel service's settings, read once from the environment (see README "Configuration"). */

import type { Environment } from '../../core/auth/tokens';
import { readEnum, readInt, readUrl } from '../../core/env';

export interface ChannelConfig {
  stage: Environment;
  playbackBaseUrl: string;
  tokenLimits: { perEmailPerDay: number; perSourceIpPerHour: number };
}

export function channelConfigFromEnv(): ChannelConfig {
  return {
    stage: readEnum('ONAIR_STAGE', ['test', 'prod'] as const, 'test'),
    playbackBaseUrl: readUrl('PLAYBACK_BASE_URL', 'http://localhost:8000'),
    tokenLimits: {
      perEmailPerDay: readInt('TOKEN_LIMIT_PER_EMAIL_PER_DAY', 5, { min: 1 }),
      perSourceIpPerHour: readInt('TOKEN_LIMIT_PER_IP_PER_HOUR', 20, { min: 1 }),
    },
  };
}
