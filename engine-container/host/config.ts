/**
 * The engine process's settings from the environment (engine-container/README.md, "Engine process
 * configuration"). Engine options not listed here keep the engine's defaults (same file, "Options").
 */
import type { Environment } from '../../core/auth/tokens';
import { readBool, readEnum, readInt, readOptionalString } from '../../core/env';
import { allowPrivateUrlsFromEnv } from '../../core/fetch/private-urls-setting';
import type { EngineOptions } from '../src/index';

export interface EngineHostConfig {
  stage: Environment;
  /** Engine options derived from the environment (no managers, no store: the factory adds those). */
  options: EngineOptions;
  /**
   * `dynamodb` (shared by every engine task: required behind a load balancer) or `memory`; ignored when
   * ENGINE_KVSTORE_URL names the shared store (redis://…, dynamodb://<table>; options.kvstoreUrl).
   */
  logStore: 'dynamodb' | 'memory';
  channelRefreshMs: number;
  webhookTimeoutMs: number;
  /**
   * ALLOW_PRIVATE_URLS: let VODs, prerolls, slates, webhooks and WebVTT sources be on private or
   * loopback addresses (npm start only). Off, they are fetched through the guard (docs/security.md).
   */
  allowPrivateUrls: boolean;
}

/**
 * Seconds an idle connection stays open: longer than the ALB's 60 s idle timeout (lib/engine), so the
 * ALB always closes first. Closed first by the engine, a connection can take the ALB's next request just
 * as it goes, and the viewer gets a 502 (Node's default is 5 s).
 */
export const ENGINE_KEEP_ALIVE_S = 65;

const optionalInt = (name: string, min: number, max: number): number | undefined => {
  const raw = readOptionalString(name);
  return raw === undefined ? undefined : readInt(name, 0, { min, max });
};

export function engineHostConfigFromEnv(): EngineHostConfig {
  // Unforced by default: each channel's target duration is its own setting, else follows its content
  // (core/target-duration.ts). Forced, it is every channel's; the engine refuses a padding with it.
  const padding = optionalInt('ENGINE_TARGET_DURATION_PADDING', 0, 10);
  const targetDuration = optionalInt('ENGINE_FORCE_TARGET_DURATION', 1, 30);
  const options: EngineOptions = {
    port: readInt('port', readInt('ENGINE_PORT', 8000, { min: 0, max: 65535 }), { min: 0, max: 65535 }),
    // Unset = every interface, as a container behind a load balancer needs; 127.0.0.1 keeps a task run
    // on a shared host's network (the rehearsal's podman --network=host) off other interfaces.
    host: readOptionalString('ENGINE_HOST'),
    defaultSlateUri: readOptionalString('ENGINE_SLATE_URI'),
    forceTargetDuration: targetDuration,
    targetDurationPadding: padding,
    playlistWindowMs: readInt('ENGINE_WINDOW_MS', 60_000, { min: 6000, max: 3_600_000 }),
    // At most 290 s: the server waits keep-alive + 1 s for headers, under Node's 300 s request timeout.
    keepAliveTimeout: readInt('ENGINE_KEEP_ALIVE_S', ENGINE_KEEP_ALIVE_S, { min: 1, max: 290 }),
    cacheTTL: readInt('ENGINE_CACHE_TTL', 4, { min: 1, max: 60 }),
    cloudMetrics: readBool('ENGINE_CLOUD_METRICS', false),
    sessionEventStream: readBool('ENGINE_EVENT_STREAM', true),
    sessionResetKey: readOptionalString('ENGINE_RESET_KEY'),
    staticDirectory: readOptionalString('ENGINE_STATIC_DIR'),
    kvstoreUrl: readOptionalString('ENGINE_KVSTORE_URL'),
    // Seconds a dead engine task's writer lease outlives it (README: High availability).
    volatileKeyTTL: readInt('ENGINE_LEASE_TTL_S', 5, { min: 1, max: 60 }),
  };
  return {
    stage: readEnum('ONAIR_STAGE', ['test', 'prod'] as const, 'test'),
    options,
    logStore: (readOptionalString('ENGINE_LOG_STORE') ?? 'dynamodb') === 'memory' ? 'memory' : 'dynamodb',
    channelRefreshMs: readInt('ENGINE_CHANNEL_REFRESH_MS', 2000, { min: 200, max: 60_000 }),
    webhookTimeoutMs: readInt('ENGINE_WEBHOOK_TIMEOUT_MS', 2000, { min: 100, max: 30_000 }),
    allowPrivateUrls: allowPrivateUrlsFromEnv(),
  };
}
