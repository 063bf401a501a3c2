/**
 * A job as stored, and the worker info the API shows for it. Its status is ACTIVE (queued or running:
 * the job still holds, or waits for, a worker) or INACTIVE (finished, either way); `phase` says which
 * of those it is.
 */
import { z } from 'zod';
import type { ModelName } from './models';
import type { EncodingSettings, PipelineSettings } from './settings';

/**
 * A job id as the API issues them (crypto.randomUUID): 36 characters, hex digits and hyphens in UUID
 * form. Nothing else can name a job, so nothing else reaches the job store.
 */
export const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The key a page of ACTIVE jobs continues after: the byStatus index's (status, createdAt) and the
 * table's id. A cursor (core/paging.ts) must have exactly this shape, so it can only point into the
 * ACTIVE jobs and only at a key DynamoDB accepts.
 */
export const ACTIVE_JOB_KEY = ['id', 'status', 'createdAt'] as const;
export const activeJobPageKey = z
  .object({
    id: z.string().regex(JOB_ID),
    status: z.literal('ACTIVE'),
    createdAt: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();
export type ActiveJobKey = z.infer<typeof activeJobPageKey>;

/** What a job request asks to measure (validated by the API before it gets here). */
export interface JobSpec {
  /** The output's name: one key segment of its result files. */
  name: string;
  /** `s3://bucket/key` of the reference video. */
  reference: string;
  models: ModelName[];
  bitrates: number[];
  resolutions: { width: number; height: number }[];
}

export type JobStatus = 'ACTIVE' | 'INACTIVE';
export type JobPhase = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED';

/** The pipeline with its result bucket resolved when the job was created. */
export type ResolvedPipeline = PipelineSettings & { resultBucket: string };

export interface Progress {
  done: number;
  total: number;
}

export interface JobItem {
  id: string;
  /** The tenant (token subject) that submitted it; absent when auth is off (the implicit tenant). */
  tenant?: string;
  status: JobStatus;
  phase: JobPhase;
  name: string;
  reference: string;
  models: ModelName[];
  bitrates: number[];
  resolutions: { width: number; height: number }[];
  encodingSettingsUrl?: string;
  pipelineUrl?: string;
  encoding: EncodingSettings;
  pipeline: ResolvedPipeline;
  createdAt: number;
  updatedAt: number;
  startedAt?: number;
  finishedAt?: number;
  heartbeatAt?: number;
  /** Attempts started so far; a retry is attempt n + 1. */
  attempts: number;
  maxAttempts: number;
  progress: Progress;
  error?: string;
  /** Per-model errors (e.g. a model file this engine lacks); other models still ran. */
  modelErrors?: Partial<Record<ModelName, string>>;
  /** The running attempt's SQS receipt handle, so whoever ends the attempt can settle the message. */
  receiptHandle?: string;
  /** Where the running attempt runs: `pid:<n>` locally, the ECS task ARN in AWS. */
  worker?: string;
}

/**
 * Whether `tenant` may see the job: with auth off (tenant undefined) every job is the one implicit
 * tenant's; with auth on only the tenant that submitted it sees it.
 */
export const visibleTo = (job: Pick<JobItem, 'tenant'>, tenant: string | undefined): boolean =>
  tenant === undefined || job.tenant === tenant;

/**
 * A tenant's jobs write their results under a prefix of their own, `<tenant>/<resultPrefix>`, so two
 * tenants' outputs of the same name never share files; with auth off the prefix is as configured.
 */
export const tenantResultPrefix = (tenant: string | undefined, prefix: string): string =>
  tenant === undefined ? prefix : `${tenant}/${prefix}`;

/** Score files a job will write: every rung for every model. */
export const totalFiles = (job: Pick<JobSpec, 'models' | 'bitrates' | 'resolutions'>): number =>
  job.models.length * job.bitrates.length * job.resolutions.length;

export interface NewJob {
  id: string;
  tenant?: string;
  spec: JobSpec;
  encodingSettingsUrl?: string;
  pipelineUrl?: string;
  encoding: EncodingSettings;
  pipeline: ResolvedPipeline;
  maxAttempts: number;
  now: number;
}

export function newJob(n: NewJob): JobItem {
  return {
    id: n.id,
    ...(n.tenant === undefined ? {} : { tenant: n.tenant }),
    status: 'ACTIVE',
    phase: 'QUEUED',
    name: n.spec.name,
    reference: n.spec.reference,
    models: [...n.spec.models],
    bitrates: [...n.spec.bitrates],
    resolutions: n.spec.resolutions.map((r) => ({ width: r.width, height: r.height })),
    encodingSettingsUrl: n.encodingSettingsUrl,
    pipelineUrl: n.pipelineUrl,
    encoding: n.encoding,
    pipeline: n.pipeline,
    createdAt: n.now,
    updatedAt: n.now,
    attempts: 0,
    maxAttempts: n.maxAttempts,
    progress: { done: 0, total: totalFiles(n.spec) },
  };
}

export interface WorkerInfo {
  id: string;
  name: string;
  status: JobStatus;
  phase: JobPhase;
  /** Time since the current (or last) attempt started, until now or until it finished; 0 while queued. */
  runningTimeMs: number;
  progress: Progress & { percent: number };
  attempts: number;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  error?: string;
  modelErrors?: Partial<Record<ModelName, string>>;
  /** Where its results are compiled. */
  result: string;
}

export function workerInfo(job: JobItem, now: number): WorkerInfo {
  const runningTimeMs =
    job.startedAt === undefined ? 0 : Math.max(0, (job.finishedAt ?? now) - job.startedAt);
  const { done, total } = job.progress;
  return {
    id: job.id,
    name: job.name,
    status: job.status,
    phase: job.phase,
    runningTimeMs,
    progress: { done, total, percent: total === 0 ? 0 : Math.round((done / total) * 1000) / 10 },
    attempts: job.attempts,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    error: job.error,
    modelErrors: job.modelErrors && Object.keys(job.modelErrors).length ? job.modelErrors : undefined,
    result: `/autoabr/result/${encodeURIComponent(job.name)}/`,
  };
}
