/**
 * The onair engine process: the playout engine with the channel API's channels (and, when
 * SCHEDULE_SERVICE_API_URL is set, the schedule service's), the shared DynamoDB playout log, and the
 * settings of config.ts. Used by the container entry (main.ts) and by `npm start`.
 */

import { dynamoAsRunStore } from '../../core/asrun/asrun-store';
import { documentClient } from '../../core/aws';
import { dynamoStatusWriter } from '../../core/channel-status/status-store';
import { processGuardedFetch } from '../../core/fetch/guarded-fetch';
import { tableName, tables } from '../../core/resources';
import { dynamoChannelStore } from '../../functions/channel/stores/channel-store';
import { Engine, type EngineOptions } from '../src/index';
import { DynamoDbPlayoutLogStore } from '../src/stores/dynamo-log-store';
import { AsRunRecorder } from './asrun-recorder';
import { ChannelTableManager } from './channel-table-manager';
import { type ChannelSource, CompositeSources } from './composite';
import { engineHostConfigFromEnv } from './config';
import { OnairAssetManager } from './onair-asset-manager';
import { schedulePluginFromEnv } from './schedule/index';
import { serviceTokenProvider } from './service-token';
import { StatusTracker } from './status/status-tracker';

export interface OnairEngine {
  engine: Engine;
  /** What this task sees of each channel's status (and writes for the APIs). */
  status: StatusTracker;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createOnairEngine(overrides: EngineOptions = {}): OnairEngine {
  const config = engineHostConfigFromEnv();
  // Every URL the engine fetches comes from a user (channel, webhook answer, schedule entry) or is a
  // slate: all through the guard. Only the schedule plug-in's calls to the schedule API (operator
  // configured) use their own fetch. docs/security.md.
  const fetch = processGuardedFetch(config.allowPrivateUrls);
  const table = new ChannelTableManager(
    dynamoChannelStore(documentClient(), tableName(tables.channels)),
    config.channelRefreshMs,
  );
  const sources: ChannelSource[] = [
    {
      name: 'channel-api',
      channels: table,
      assets: new OnairAssetManager({
        channel: (id) => table.channel(id),
        fetch,
        webhookTimeoutMs: config.webhookTimeoutMs,
      }),
    },
  ];
  const schedule = schedulePluginFromEnv(process.env, serviceTokenProvider(config.stage));
  if (schedule)
    sources.push({ name: 'schedule', channels: schedule.channelManager, assets: schedule.assetManager });
  const composite = new CompositeSources(sources);
  const engine = new Engine(composite, {
    // What the source has, the channel plays: demuxed audio and WebVTT renditions whenever the
    // channel's first VOD or its declared tracks have them (docs/media.md). No setting needed.
    useDemuxedAudio: true,
    useVTTSubtitles: true,
    ...config.options,
    fetch,
    channelManager: composite,
    // Channel-API channels' live events and schedule channels' LIVE entries: each source answers
    // only for its own channels (the others get []), so the two lists never both hold events.
    streamSwitchManager: {
      getSchedule: async (id: string) => [
        ...(await table.getSchedule(id)),
        ...(schedule ? await schedule.switchManager.getSchedule(id) : []),
      ],
      // Both say which channels' events changed: the engine asks those alone (schedule-poll.ts).
      takeChangedChannels: () =>
        new Set([...table.takeChangedChannels(), ...(schedule?.switchManager.takeChangedChannels() ?? [])]),
    },
    channelRefreshIntervalMs: config.channelRefreshMs,
    ...(config.logStore === 'dynamodb' && !config.options.kvstoreUrl && !overrides.kvstoreUrl
      ? {
          logStore: new DynamoDbPlayoutLogStore(
            documentClient(),
            undefined,
            undefined,
            // Items stay for start-over's retention after they end.
            (config.options.timeshiftRetentionMs ?? 86_400_000) / 1000,
          ),
        }
      : {}),
    ...overrides,
  });
  // The as-run log (docs/asrun.md): every task writes the same entries from the shared log.
  const asRun = config.asRun
    ? new AsRunRecorder(
        engine,
        dynamoAsRunStore(documentClient(), tableName(tables.asRun), config.asRunRetentionDays),
        engine.core.log,
      )
    : undefined;
  // Each channel's status, from this task's events, into the table the APIs read (docs/design.md).
  const status = new StatusTracker({
    events: engine.events,
    writer: dynamoStatusWriter(documentClient(), tableName(tables.playoutLog)),
    metrics: engine.core.metrics,
    log: engine.core.log,
    storeFailing: (id) => engine.core.channel(id)?.playout.failingSinceMs !== undefined,
  });
  return {
    engine,
    status,
    start: async () => {
      await table.start();
      asRun?.start();
      // Before the engine: the first items' starts are events too.
      status.start();
      await engine.start();
    },
    stop: async () => {
      await engine.stop();
      await asRun?.stop();
      await status.stop();
      await table.stop();
    },
  };
}
