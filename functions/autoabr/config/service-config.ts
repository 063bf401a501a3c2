/**
 * AutoABR's settings from the environment (see README.md for the table). Each entry point reads its
 * configuration once when it starts and passes it down; nothing here is read at import, and nothing
 * here writes to the environment.
 */
import { availableParallelism, tmpdir } from 'node:os';
import { resolve } from 'node:path';
import type { ClientSettings } from '../../../core/aws';
import { readBool, readEnum, readInt, readOptionalString, readString } from '../../../core/env';
import { buckets, localName, queues, tables } from '../../../core/resources';
import { cloudClientSettings } from './cloud-config';
import { defaultModelDir, installerFfmpegPath, repoRoot } from './default-paths';

type Env = NodeJS.ProcessEnv;

/** Where AutoABR's state lives, and how its AWS clients sign in. */
export interface AwsConfig {
  table: string;
  queueUrl: string;
  /** Dead-letter queue URL; undefined = `<queueUrl>-dlq`. */
  dlqUrl: string | undefined;
  /** The service bucket: default result bucket, and where the default pipeline writes. */
  bucket: string;
  client: ClientSettings;
}

export function awsConfigFromEnv(env: Env = process.env): AwsConfig {
  return {
    table: readOptionalString(tables.autoabrJobs.env, env) ?? localName(tables.autoabrJobs.id),
    queueUrl: readString(queues.autoabrJobs.env, undefined, env),
    dlqUrl: readOptionalString('QUEUE_AUTOABR_JOBS_DLQ', env),
    bucket: readOptionalString(buckets.autoabr.env, env) ?? localName(buckets.autoabr.id),
    client: cloudClientSettings(env),
  };
}

const leaseSeconds = (env: Env) =>
  readInt('AUTOABR_LEASE_SECONDS', queues.autoabrJobs.visibilityTimeoutSeconds, { min: 5, max: 43_200 }, env);

export interface WorkerConfig {
  ffmpegPath: string;
  modelDir: string;
  workDir: string;
  cores: number;
  heartbeatMs: number;
  leaseSeconds: number;
  maxReferenceBytes: number;
  aws: AwsConfig;
}

export function workerConfigFromEnv(env: Env = process.env): WorkerConfig {
  const modelDir = readOptionalString('VMAF_MODEL_DIR', env);
  return {
    ffmpegPath: readOptionalString('FFMPEG_PATH', env) ?? installerFfmpegPath(),
    // A relative VMAF_MODEL_DIR is taken from the repository root, like every path in the README.
    modelDir: modelDir ? resolve(repoRoot(), modelDir) : defaultModelDir(),
    workDir: readString('AUTOABR_WORK_DIR', tmpdir(), env),
    cores: readInt('AUTOABR_CORES', availableParallelism(), { min: 1, max: 256 }, env),
    heartbeatMs: readInt('AUTOABR_HEARTBEAT_MS', 10_000, { min: 100, max: 300_000 }, env),
    leaseSeconds: leaseSeconds(env),
    maxReferenceBytes: readInt('AUTOABR_MAX_REFERENCE_BYTES', 20 * 1024 ** 3, { min: 1 }, env),
    aws: awsConfigFromEnv(env),
  };
}

export interface EcsConfig {
  cluster: string;
  taskDefinition: string;
  container: string;
  subnets: string[];
  securityGroups: string[];
  assignPublicIp: boolean;
}

export interface DispatcherConfig {
  /** Upper bound on running workers, whatever the pipelines say. */
  maxWorkers: number;
  /** How long a received message stays invisible: the worker renews it while it runs. */
  leaseSeconds: number;
  /** A RUNNING job without a heartbeat for this long has lost its worker. */
  heartbeatTimeoutMs: number;
  /** A job still QUEUED after this long is given up. */
  queuedTimeoutMs: number;
  /** The local dispatcher's tick. */
  intervalMs: number;
  /** Set when workers are ECS tasks; local workers are child processes. */
  ecs: EcsConfig | undefined;
  aws: AwsConfig;
}

export function dispatcherConfigFromEnv(env: Env = process.env): DispatcherConfig {
  const launcher = readEnum(
    'AUTOABR_WORKER_LAUNCHER',
    ['process', 'ecs'] as const,
    readOptionalString('AUTOABR_ECS_CLUSTER', env) ? 'ecs' : 'process',
    env,
  );
  return {
    maxWorkers: readInt('AUTOABR_MAX_WORKERS', 10, { min: 1, max: 1000 }, env),
    intervalMs: readInt('AUTOABR_DISPATCH_INTERVAL_MS', 2000, { min: 50, max: 600_000 }, env),
    leaseSeconds: leaseSeconds(env),
    heartbeatTimeoutMs: readInt('AUTOABR_HEARTBEAT_TIMEOUT_MS', 60_000, { min: 500 }, env),
    queuedTimeoutMs: readInt('AUTOABR_QUEUED_TIMEOUT_MS', 24 * 3600_000, { min: 1000 }, env),
    ecs: launcher === 'ecs' ? ecsConfigFromEnv(env) : undefined,
    aws: awsConfigFromEnv(env),
  };
}

function ecsConfigFromEnv(env: Env): EcsConfig {
  const list = (name: string) =>
    readString(name, undefined, env)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return {
    cluster: readString('AUTOABR_ECS_CLUSTER', undefined, env),
    taskDefinition: readString('AUTOABR_ECS_TASK_DEFINITION', undefined, env),
    container: readString('AUTOABR_ECS_CONTAINER', 'worker', env),
    subnets: list('AUTOABR_ECS_SUBNETS'),
    securityGroups: list('AUTOABR_ECS_SECURITY_GROUPS'),
    assignPublicIp: readBool('AUTOABR_ECS_ASSIGN_PUBLIC_IP', false, env),
  };
}

export interface ApiConfig {
  stage: string;
  /** AUTOABR_REQUIRE_AUTH: every route but `GET /` needs a token with the autoabr scope (api/auth.ts). */
  requireAuth: boolean;
  /** Attempts per job (capped by the queue's maxReceiveCount, which backs it up). */
  maxAttempts: number;
  /** How long an API instance trusts its view of the settings cache generation. */
  cacheCheckMs: number;
  maxSettingsBytes: number;
  /** Result files fetched at once when compiling. */
  resultConcurrency: number;
  aws: AwsConfig;
}

export function apiConfigFromEnv(env: Env = process.env): ApiConfig {
  return {
    stage: readString('ONAIR_STAGE', 'test', env),
    requireAuth: readBool('AUTOABR_REQUIRE_AUTH', false, env),
    maxAttempts: readInt(
      'AUTOABR_MAX_ATTEMPTS',
      queues.autoabrJobs.maxReceiveCount,
      { min: 1, max: queues.autoabrJobs.maxReceiveCount },
      env,
    ),
    cacheCheckMs: readInt('AUTOABR_CACHE_CHECK_MS', 5000, { min: 0, max: 3_600_000 }, env),
    maxSettingsBytes: readInt('AUTOABR_MAX_SETTINGS_BYTES', 64 * 1024, { min: 1024 }, env),
    resultConcurrency: readInt('AUTOABR_RESULT_CONCURRENCY', 64, { min: 1, max: 512 }, env),
    aws: awsConfigFromEnv(env),
  };
}
