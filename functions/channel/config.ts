/**
 * The channel service's settings, read once from the environment at the entry point (see README
 * "Configuration"). A set-but-invalid value fails at start (core/env.ts), never silently defaulted.
 */

import type { Environment } from '../../core/auth/tokens';
import { readEnum, readInt, readUrl } from '../../core/env';
import { allowPrivateUrlsFromEnv } from '../../core/fetch/private-urls-setting';
import { queues, queueUrl, tableName, tables } from '../../core/resources';

export interface ChannelConfig {
  /** ONAIR_STAGE: which tokens are accepted, whether `/token` exists. */
  stage: Environment;
  /** PLAYBACK_BASE_URL: the `{playback_host}` of playback URLs. */
  playbackBaseUrl: string;
  /** TOKEN_LIMIT_PER_EMAIL_PER_DAY, TOKEN_LIMIT_PER_IP_PER_HOUR: trial token issuance. */
  tokenLimits: { perEmailPerDay: number; perSourceIpPerHour: number };
  /** TABLE_CHANNELS, TABLE_RATE_LIMITS, TABLE_PLAYOUT_LOG (read only: the EPG) (core/resources.ts). */
  tables: { channels: string; rateLimits: string; playoutLog: string; asRun: string };
  /** QUEUE_CHANNEL_EVENTS: where channel events go (required). */
  eventsQueueUrl: string;
  /** ALLOW_PRIVATE_URLS: accept channel URLs on private or loopback addresses (npm start only). */
  allowPrivateUrls: boolean;
  /** SOURCE_PROBE_TIMEOUT_MS: how long a channel's source may take to answer the HLS check. */
  sourceProbeTimeoutMs: number;
}

export function channelConfigFromEnv(): ChannelConfig {
  return {
    stage: readEnum('ONAIR_STAGE', ['test', 'prod'] as const, 'test'),
    playbackBaseUrl: readUrl('PLAYBACK_BASE_URL', 'http://localhost:8000'),
    tokenLimits: {
      perEmailPerDay: readInt('TOKEN_LIMIT_PER_EMAIL_PER_DAY', 5, { min: 1 }),
      perSourceIpPerHour: readInt('TOKEN_LIMIT_PER_IP_PER_HOUR', 20, { min: 1 }),
    },
    tables: {
      channels: tableName(tables.channels),
      rateLimits: tableName(tables.rateLimits),
      playoutLog: tableName(tables.playoutLog),
      asRun: tableName(tables.asRun),
    },
    eventsQueueUrl: queueUrl(queues.channelEvents),
    allowPrivateUrls: allowPrivateUrlsFromEnv(),
    sourceProbeTimeoutMs: readInt('SOURCE_PROBE_TIMEOUT_MS', 3000, { min: 100, max: 10_000 }),
  };
}
