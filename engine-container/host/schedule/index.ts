/**
 * The schedule plugin of the playout engine: a channel manager listing the schedule service's
 * channels and an asset manager that plays each channel's schedule by the wall clock. Enabled by
 * SCHEDULE_SERVICE_API_URL (the schedule API's base, e.g. http://localhost:8090/api/v1).
 *
 *   const plugin = schedulePluginFromEnv();
 *   const engine = new Engine(plugin.assetManager, { channelManager: plugin.channelManager, ... });
 */
import { readOptionalString, readUrl } from '../../../core/env';
import { type Logger, logger } from '../../../core/logger';
import { ScheduleAssetManager } from './schedule-asset-manager';
import { ScheduleChannelManager } from './schedule-channel-manager';
import { type ScheduleSource, scheduleApiClient } from './schedule-client';
import { ScheduleWatch } from './schedule-watch';
import { ScheduleSwitchManager } from './switch-manager';

export { entryMetadata, onAirAt } from './on-air';
export { ScheduleAssetManager } from './schedule-asset-manager';
export { ScheduleChannelManager } from './schedule-channel-manager';
export { type ScheduleSource, scheduleApiClient } from './schedule-client';
export { ScheduleWatch } from './schedule-watch';
export { ScheduleSwitchManager } from './switch-manager';

export interface SchedulePlugin {
  assetManager: ScheduleAssetManager;
  channelManager: ScheduleChannelManager;
  /** LIVE entries as the engine's LIVE events (switch-manager.ts). */
  switchManager: ScheduleSwitchManager;
  /** What the three above read: the change stamp, the channels, the LIVE entries. */
  watch: ScheduleWatch;
}

export interface SchedulePluginOptions {
  /** Default: an HTTP client of `apiUrl`. */
  source?: ScheduleSource;
  apiUrl?: string;
  token?: string | (() => Promise<string>);
  slate?: string;
  clock?: () => number;
  log?: Logger;
  /** The channels are listed at least this often, whatever the change stamp says (default 5 min). */
  fullListMs?: number;
}

export function createSchedulePlugin(options: SchedulePluginOptions): SchedulePlugin {
  const log = options.log ?? logger.child({ component: 'schedule-plugin' });
  const source =
    options.source ??
    scheduleApiClient({
      apiUrl: options.apiUrl ?? readUrl('SCHEDULE_SERVICE_API_URL'),
      token: options.token,
    });
  const watch = new ScheduleWatch({ source, log, clock: options.clock, fullListMs: options.fullListMs });
  return {
    assetManager: new ScheduleAssetManager({
      source,
      log,
      clock: options.clock,
      scheduleVersion: (id) => watch.scheduleVersion(id),
      takeChangedSchedules: () => watch.takeChangedSchedules(),
    }),
    channelManager: new ScheduleChannelManager({ watch, log, slate: options.slate }),
    switchManager: new ScheduleSwitchManager(watch),
    watch,
  };
}

/**
 * The plugin when SCHEDULE_SERVICE_API_URL is set, else undefined. It plays the schedule channels of
 * every tenant, as engine channels `<tenantKey>~<id>` (docs/schedule-api.md "Playback URLs").
 * SCHEDULE_SERVICE_TOKEN is sent as the x-jwt bearer token (with SCHEDULE_REQUIRE_AUTH on the service
 * it must carry `scope: "schedule:read-all"`, as the engine's own service token does); SCHEDULE_SLATE_URI is the slate of every scheduled channel.
 */
export function schedulePluginFromEnv(
  env: Record<string, string | undefined> = process.env,
  /** Used when SCHEDULE_SERVICE_TOKEN is unset (the engine host mints its own service token). */
  tokenProvider?: () => Promise<string>,
): SchedulePlugin | undefined {
  if (!readOptionalString('SCHEDULE_SERVICE_API_URL', env)) return undefined;
  return createSchedulePlugin({
    apiUrl: readUrl('SCHEDULE_SERVICE_API_URL', undefined, env),
    token: readOptionalString('SCHEDULE_SERVICE_TOKEN', env) ?? tokenProvider,
    slate: readOptionalString('SCHEDULE_SLATE_URI', env),
  });
}
