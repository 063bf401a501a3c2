/**
 * Engine options (engine-container/README.md, "Options"), each with its default. Merged with defaults and
 * validated once, here; the rest of the engine only ever sees a complete, valid EngineConfig.
 * Invalid values and combinations fail at construction with a message naming the option.
 */
import { existsSync, statSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, readInt } from '../../core/env';
import type { FetchLike } from '../../core/fetch/bounded-fetch';
import type { PlayoutLogStore } from './playout/log-store';
import type { IChannelManager, IStreamSwitchManager } from './types';

/** Stores kvstoreUrl / cachestoreUrl may name (src/stores/store-from-url.ts). */
const SHARED_STORE_SCHEMES = ['redis:', 'rediss:', 'dynamodb:'];

const ms = () => z.number().int().nonnegative();
const positiveMs = () => z.number().int().positive();
const endpoint = z
  .string()
  .refine(
    (v) => v.startsWith('/') || /^https?:\/\//.test(v),
    'must be a path starting with / or an http(s) URL',
  );
const isFn = (v: unknown) => typeof v === 'function';
const hasMethod = (name: string) => (v: unknown) =>
  typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>)[name] === 'function';

const schema = z
  .object({
    defaultSlateUri: z.string().url().optional(),
    slateRepetitions: z.number().int().positive().default(10),
    slateDuration: positiveMs().default(4000),
    kvstoreUrl: z.string().url().optional(),
    cachestoreUrl: z.string().url().optional(),
    /** Contract: time data waits in memory before it is written to the shared store. Writes go through. */
    sharedStoreCacheTTL: ms().optional(),
    /** How old this instance's view of a shared playout log may get before a request or tick re-reads it. */
    sharedLogMaxAgeMs: ms().default(1000),
    heartbeat: z
      .string()
      .regex(/^\/[^?#]*$/, 'must be a path starting with /')
      .default('/health'),
    channelManager: z
      .custom<IChannelManager>(hasMethod('getChannels'), 'must have a getChannels() method')
      .optional(),
    streamSwitchManager: z
      .custom<IStreamSwitchManager>(hasMethod('getSchedule'), 'must have a getSchedule() method')
      .optional(),
    cacheTTL: z.number().positive().default(4),
    playheadDiffThreshold: ms().optional(),
    /** Unset: the tick adapts to the channels' target durations (tick-ceiling.ts). */
    maxTickInterval: positiveMs().optional(),
    cloudMetrics: z.boolean().default(false),
    useDemuxedAudio: z.boolean().default(false),
    dummySubtitleEndpoint: endpoint.default('/vtt/dummyUrl'),
    subtitleSliceEndpoint: endpoint.default('/vtt/sliceUrl'),
    useVTTSubtitles: z.boolean().default(false),
    alwaysNewSegments: z.boolean().default(false),
    partialStoreHLSVod: z.boolean().default(false),
    alwaysMapBandwidthByNearest: z.boolean().default(false),
    diffCompensationRate: z.number().min(0).max(1).default(0.5),
    staticDirectory: z.string().min(1).optional(),
    averageSegmentDuration: positiveMs().default(3000),
    targetDurationPadding: z.number().int().nonnegative().optional(),
    forceTargetDuration: z.number().int().positive().optional(),
    noSessionDataTags: z.boolean().default(false),
    volatileKeyTTL: z.number().positive().default(5),
    autoCreateSession: z.boolean().default(false),
    sessionResetKey: z.string().min(1).optional(),
    keepAliveTimeout: z.number().nonnegative().default(5),
    sessionEventStream: z.boolean().default(false),
    /** Open event streams allowed per channel and per process (a client over a cap gets a 503). */
    eventStreamMaxClientsPerChannel: z.number().int().positive().default(50),
    eventStreamMaxClients: z.number().int().positive().default(1000),
    // ours
    port: z.number().int().min(0).max(65535).optional(),
    host: z.string().min(1).optional(),
    clock: z
      .custom<() => number>(isFn, 'must be a function returning Unix ms')
      .default(() => () => Date.now()),
    logStore: z.custom<PlayoutLogStore>(hasMethod('append'), 'must implement PlayoutLogStore').optional(),
    playlistWindowMs: positiveMs().default(60_000),
    fetch: z.custom<FetchLike>(isFn, 'must be a fetch function').default(() => globalThis.fetch as FetchLike),
    vodLoadTimeoutMs: positiveMs().default(5000),
    getNextVodTimeoutMs: positiveMs().default(5000),
    channelRefreshIntervalMs: positiveMs().default(5000),
    scheduleRefreshIntervalMs: positiveMs().default(5000),
    maxPlaylistBytes: positiveMs().default(5 * 1024 * 1024),
  })
  .strict()
  .superRefine((o, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    refuseContractOptions(o, issue);
    if (o.maxTickInterval !== undefined && o.maxTickInterval <= o.averageSegmentDuration) {
      issue(
        'maxTickInterval',
        `must exceed the media segment length (averageSegmentDuration ${o.averageSegmentDuration} ms)`,
      );
    }
    if (
      o.maxTickInterval !== undefined &&
      o.forceTargetDuration !== undefined &&
      o.maxTickInterval <= o.forceTargetDuration * 1000
    ) {
      issue(
        'maxTickInterval',
        `must exceed the media segment length (forceTargetDuration ${o.forceTargetDuration} s)`,
      );
    }
    if (o.forceTargetDuration !== undefined && o.playlistWindowMs < 3 * o.forceTargetDuration * 1000) {
      issue('playlistWindowMs', 'must hold at least 3 target durations (RFC 8216 §6.2.2)');
    }
    const urls = [o.kvstoreUrl, o.cachestoreUrl].filter((u): u is string => u !== undefined);
    for (const [name, url] of [
      ['kvstoreUrl', o.kvstoreUrl],
      ['cachestoreUrl', o.cachestoreUrl],
    ] as const) {
      if (url !== undefined && !SHARED_STORE_SCHEMES.includes(new URL(url).protocol))
        issue(name, 'must be a redis://, rediss:// or dynamodb:// URL');
    }
    // One shared state, one store: two different URLs, or a URL and a logStore, name two.
    if (new Set(urls).size > 1) issue('cachestoreUrl', 'names another store than kvstoreUrl');
    if (urls.length > 0 && o.logStore)
      issue('logStore', 'pass logStore or kvstoreUrl/cachestoreUrl, not both');
    if (o.heartbeat.startsWith('/channels/')) issue('heartbeat', 'must not be below /channels/');
    if (
      o.staticDirectory !== undefined &&
      !(existsSync(o.staticDirectory) && statSync(o.staticDirectory).isDirectory())
    ) {
      issue('staticDirectory', `"${o.staticDirectory}" is not a directory`);
    }
  });

type Issue = (path: string, message: string) => void;

/**
 * Contract options that have no meaning in this engine's design (time is the playhead; the shared store
 * holds log items, not VODs) are refused when set to anything but what the engine does anyway, rather
 * than accepted and ignored (README, "Options").
 */
function refuseContractOptions(
  o: {
    playheadDiffThreshold?: number;
    partialStoreHLSVod: boolean;
    sharedStoreCacheTTL?: number;
    targetDurationPadding?: number;
    forceTargetDuration?: number;
  },
  issue: Issue,
): void {
  if (o.playheadDiffThreshold !== undefined)
    issue(
      'playheadDiffThreshold',
      'not supported: this engine has no playhead that can drift (a playlist is computed from the clock); remove it',
    );
  if (o.partialStoreHLSVod)
    issue(
      'partialStoreHLSVod',
      'not supported: the shared store holds no VOD here, only playout log items that name VOD URIs; remove it',
    );
  if (o.sharedStoreCacheTTL !== undefined && o.sharedStoreCacheTTL !== 0)
    issue(
      'sharedStoreCacheTTL',
      'not supported: every log item is written to the shared store at once (the first writer wins, so a ' +
        'delayed write would let engines disagree); only 0 is accepted. sharedLogMaxAgeMs bounds how old ' +
        "an engine's read view of the shared log may get",
    );
  if (o.targetDurationPadding !== undefined && o.forceTargetDuration !== undefined)
    issue(
      'targetDurationPadding',
      'pads the target duration computed from the media; forceTargetDuration fixes it instead: set one of them',
    );
}

export type EngineOptions = z.input<typeof schema>;
export type EngineConfig = z.output<typeof schema> & { port: number };

export function resolveConfig(
  options: EngineOptions = {},
  env: Record<string, string | undefined> = process.env,
): EngineConfig {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(options)'}: ${i.message}`);
    throw new ConfigError(`invalid engine options: ${problems.join('; ')}`);
  }
  const port = parsed.data.port ?? readInt('port', 8000, { min: 0, max: 65535 }, env);
  return { ...parsed.data, port };
}
