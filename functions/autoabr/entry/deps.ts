/**
 * The one place AutoABR's dependencies are built from the environment: core SDK clients, resource
 * names, settings. Handlers, the worker and the dispatcher call these at start (never at import).
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { documentClient, s3Client, sqsClient } from '../../../core/aws';
import { createLogger, type Logger } from '../../../core/logger';
import { bucketName, buckets, queues, queueUrl, tableName, tables } from '../../../core/resources';
import { DynamoGenerationStore } from '../adapters/dynamo-generation-store';
import { DynamoJobStore, type JobStore } from '../adapters/dynamo-job-store';
import { EcsLauncher } from '../adapters/ecs-launcher';
import { ProcessLauncher } from '../adapters/process-launcher';
import { runProcess } from '../adapters/run-process';
import { getText } from '../adapters/s3-objects';
import { type JobQueue, SqsJobQueue } from '../adapters/sqs-job-queue';
import { SettingsCache } from '../api/settings-cache';
import {
  type ApiConfig,
  apiConfig,
  dispatcherConfig,
  ecsConfig,
  workerConfig,
} from '../config/service-config';
import type { DispatcherDeps } from '../dispatcher/dispatch-once';
import { ScoreCache } from '../results/read-results';
import { detectEngine, type VmafEngine } from '../worker/detect-engine';
import type { AttemptDeps } from '../worker/end-attempt';
import type { WorkerDeps } from '../worker/run-attempt';

export const log: Logger = createLogger({ service: 'autoabr' });

const jobStore = (): JobStore => new DynamoJobStore(documentClient(), tableName(tables.autoabrJobs));
const jobQueue = (): JobQueue =>
  new SqsJobQueue(sqsClient(), queueUrl(queues.autoabrJobs), process.env.QUEUE_AUTOABR_JOBS_DLQ || undefined);

function attemptDeps(): AttemptDeps {
  return { jobs: jobStore(), queue: jobQueue(), now: Date.now, log };
}

export interface ApiDeps {
  jobs: JobStore;
  queue: JobQueue;
  s3: S3Client;
  settings: SettingsCache;
  scores: ScoreCache;
  config: ApiConfig;
  /** The service bucket: default result bucket, and where the default pipeline writes. */
  bucket: string;
  now(): number;
  newId(): string;
  log: Logger;
}

let api: ApiDeps | undefined;

/** The API's dependencies, built on first use and kept for the life of the instance (the cache lives here). */
export function apiDeps(): ApiDeps {
  api ??= buildApiDeps();
  return api;
}

/** A fresh set of API dependencies: one per API instance (tests build two to play two instances). */
export function buildApiDeps(): ApiDeps {
  const config = apiConfig();
  const s3 = s3Client();
  return {
    jobs: jobStore(),
    queue: jobQueue(),
    s3,
    settings: new SettingsCache({
      fetchText: (loc) => getText(s3, loc, config.maxSettingsBytes),
      generations: new DynamoGenerationStore(documentClient(), tableName(tables.autoabrJobs)),
      now: Date.now,
      checkEveryMs: config.cacheCheckMs,
    }),
    scores: new ScoreCache(),
    config,
    bucket: bucketName(buckets.autoabr),
    now: Date.now,
    newId: () => crypto.randomUUID(),
    log,
  };
}

export function workerDeps(): WorkerDeps {
  const config = workerConfig();
  let engine: Promise<VmafEngine> | undefined;
  return {
    ...attemptDeps(),
    s3: s3Client(),
    engine: () => {
      engine ??= detectEngine(config.ffmpegPath, config.modelDir);
      return engine;
    },
    runFfmpeg: (args, signal) => runProcess(config.ffmpegPath, args, { signal }),
    workDir: config.workDir,
    cores: config.cores,
    heartbeatMs: config.heartbeatMs,
    leaseSeconds: config.leaseSeconds,
    maxReferenceBytes: config.maxReferenceBytes,
  };
}

export function dispatcherDeps(
  options: { stdio?: 'inherit' | 'ignore' } = {},
): DispatcherDeps & { intervalMs: number } {
  const config = dispatcherConfig();
  return {
    ...attemptDeps(),
    launcher:
      config.launcher === 'ecs'
        ? new EcsLauncher(ecsConfig())
        : new ProcessLauncher({ stdio: options.stdio }),
    config,
    intervalMs: config.intervalMs,
  };
}
