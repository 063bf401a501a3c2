/**
 * The one place the channel service's dependencies are built: DynamoDB stores on the shared document
 * client, the events queue, the token service on the deployment's signing key, and the clock. Built
 * from a config already read (config.ts), so nothing here reads the environment.
 */
import { type AsRunStore, dynamoAsRunStore } from '../../core/asrun/asrun-store';
import { type KeyStore, loadSigningKeys } from '../../core/auth/signing-key';
import { TokenService } from '../../core/auth/tokens';
import { documentClient, sqsClient } from '../../core/aws';
import { dynamoStatusReader, type StatusReader } from '../../core/channel-status/status-store';
import { processGuardedFetch } from '../../core/fetch/guarded-fetch';
import { type Probe, probeHls } from '../../core/fetch/hls-probe';
import { type ChannelEvents, sqsChannelEvents } from './channel-events';
import type { ChannelConfig } from './config';
import { dynamoPlayoutReader, type PlayoutReader } from './epg/playout-reader';
import { type ChannelStore, dynamoChannelStore } from './stores/channel-store';
import { dynamoRateLimitStore, type RateLimitStore } from './stores/rate-limit-store';

export interface ChannelDeps {
  config: ChannelConfig;
  channels: ChannelStore;
  rateLimits: RateLimitStore;
  /** What the engine played and planned (the EPG of channel-service channels). */
  playout: PlayoutReader;
  /** What the engine aired (written by the engine tasks; read only here). */
  asRun: AsRunStore;
  /** Channel statuses the engine writes next to the playout log (core/channel-status/). */
  status: StatusReader;
  events: ChannelEvents;
  /** Does a source URL answer as HLS (core/fetch/hls-probe.ts)? Through the guarded fetch. */
  probe: Probe;
  tokens: TokenService;
  /** Milliseconds since the epoch: createdAt, event times, token expiry, rate-limit windows. */
  now: () => number;
}

export interface DepsOptions {
  /** Where the signing key lives (core/auth/signing-key.ts). */
  keyStore: KeyStore;
  now?: () => number;
}

export async function buildChannelDeps(config: ChannelConfig, options: DepsOptions): Promise<ChannelDeps> {
  const now = options.now ?? Date.now;
  const ddb = documentClient();
  return {
    config,
    channels: dynamoChannelStore(ddb, config.tables.channels),
    rateLimits: dynamoRateLimitStore(ddb, config.tables.rateLimits),
    playout: dynamoPlayoutReader(ddb, config.tables.playoutLog),
    asRun: dynamoAsRunStore(ddb, config.tables.asRun),
    status: dynamoStatusReader(ddb, config.tables.playoutLog),
    events: sqsChannelEvents(sqsClient(), config.eventsQueueUrl),
    probe: (url) =>
      probeHls(url, {
        fetch: processGuardedFetch(config.allowPrivateUrls),
        timeoutMs: config.sourceProbeTimeoutMs,
      }),
    tokens: await TokenService.fromSource(() => loadSigningKeys(options.keyStore), now),
    now,
  };
}
