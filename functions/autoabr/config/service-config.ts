/**
 * AutoABR's settings from the environment (see README.md for the table). Read when a process starts
 * (or a handler is first called), never at import.
 */
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBool, readEnum, readInt, readOptionalString, readString } from '../../../core/env';
import { queues } from '../../../core/resources';

/** The repository root (three folders up from here); the working directory in bundles without a URL. */
function repoRoot(): string {
  try {
    return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  } catch {
    return process.cwd();
  }
}

/** The ffmpeg of @ffmpeg-installer/ffmpeg (4.1 with libvmaf 1.3.7), loaded only when asked for. */
function installerFfmpeg(): string {
  const require = createRequire(resolve(repoRoot(), 'package.json'));
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

export interface WorkerConfig {
  ffmpegPath: string;
  modelDir: string;
  workDir: string;
  cores: number;
  heartbeatMs: number;
  leaseSeconds: number;
  maxReferenceBytes: number;
}

export function workerConfig(): WorkerConfig {
  return {
    ffmpegPath: readOptionalString('FFMPEG_PATH') ?? installerFfmpeg(),
    modelDir: resolve(repoRoot(), readString('VMAF_MODEL_DIR', '../shared/vmaf-models/libvmaf-1')),
    workDir: readString('AUTOABR_WORK_DIR', tmpdir()),
    cores: readInt('AUTOABR_CORES', availableParallelism(), { min: 1, max: 256 }),
    heartbeatMs: readInt('AUTOABR_HEARTBEAT_MS', 10_000, { min: 100, max: 300_000 }),
    leaseSeconds: readInt('AUTOABR_LEASE_SECONDS', queues.autoabrJobs.visibilityTimeoutSeconds, {
      min: 5,
      max: 43_200,
    }),
    maxReferenceBytes: readInt('AUTOABR_MAX_REFERENCE_BYTES', 20 * 1024 ** 3, { min: 1 }),
  };
}

export interface DispatcherConfig {
  /** Upper bound on running workers, whatever the pipelines say. */
  maxWorkers: number;
  intervalMs: number;
  leaseSeconds: number;
  /** A RUNNING job without a heartbeat for this long has lost its worker. */
  heartbeatTimeoutMs: number;
  /** A job still QUEUED after this long is given up. */
  queuedTimeoutMs: number;
  launcher: 'process' | 'ecs';
}

export function dispatcherConfig(): DispatcherConfig {
  return {
    maxWorkers: readInt('AUTOABR_MAX_WORKERS', 10, { min: 1, max: 1000 }),
    intervalMs: readInt('AUTOABR_DISPATCH_INTERVAL_MS', 2000, { min: 50, max: 600_000 }),
    leaseSeconds: readInt('AUTOABR_LEASE_SECONDS', queues.autoabrJobs.visibilityTimeoutSeconds, {
      min: 5,
      max: 43_200,
    }),
    heartbeatTimeoutMs: readInt('AUTOABR_HEARTBEAT_TIMEOUT_MS', 60_000, { min: 500 }),
    queuedTimeoutMs: readInt('AUTOABR_QUEUED_TIMEOUT_MS', 24 * 3600_000, { min: 1000 }),
    launcher: readEnum(
      'AUTOABR_WORKER_LAUNCHER',
      ['process', 'ecs'] as const,
      readOptionalString('AUTOABR_ECS_CLUSTER') ? 'ecs' : 'process',
    ),
  };
}

export interface ApiConfig {
  /** Attempts per job (capped by the queue's maxReceiveCount, which backs it up). */
  maxAttempts: number;
  /** How long an API instance trusts its view of the settings cache generation. */
  cacheCheckMs: number;
  maxSettingsBytes: number;
  /** Result files fetched at once when compiling. */
  resultConcurrency: number;
  /** Where results are read when no job of that name is known (the default pipeline's prefix). */
  defaultResultPrefix: string;
}

export function apiConfig(): ApiConfig {
  return {
    maxAttempts: readInt('AUTOABR_MAX_ATTEMPTS', queues.autoabrJobs.maxReceiveCount, {
      min: 1,
      max: queues.autoabrJobs.maxReceiveCount,
    }),
    cacheCheckMs: readInt('AUTOABR_CACHE_CHECK_MS', 5000, { min: 0, max: 3_600_000 }),
    maxSettingsBytes: readInt('AUTOABR_MAX_SETTINGS_BYTES', 64 * 1024, { min: 1024 }),
    resultConcurrency: readInt('AUTOABR_RESULT_CONCURRENCY', 64, { min: 1, max: 512 }),
    defaultResultPrefix: 'results',
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

export function ecsConfig(): EcsConfig {
  const list = (name: string) =>
    readString(name)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return {
    cluster: readString('AUTOABR_ECS_CLUSTER'),
    taskDefinition: readString('AUTOABR_ECS_TASK_DEFINITION'),
    container: readString('AUTOABR_ECS_CONTAINER', 'worker'),
    subnets: list('AUTOABR_ECS_SUBNETS'),
    securityGroups: list('AUTOABR_ECS_SECURITY_GROUPS'),
    assignPublicIp: readBool('AUTOABR_ECS_ASSIGN_PUBLIC_IP', false),
  };
}
