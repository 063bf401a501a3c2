/**
 * Where jobs are kept. Every write made for an attempt is conditional on that attempt still running:
 * once an attempt is declared over (heartbeat timeout, retry), a late write from it answers false
 * instead of resurrecting the job.
 */
import { z } from 'zod';
import { type ActiveJobKey, JOB_ID, type JobItem, type JobStatus } from '../domain/job';
import type { ModelName } from '../domain/models';

export interface FinishOutcome {
  phase: 'SUCCEEDED' | 'FAILED';
  error?: string;
  now: number;
}

export interface JobPage {
  items: JobItem[];
  /** The key to continue after; absent when the list is known to be complete. */
  next?: ActiveJobKey | JobPageKey;
}

/** The key a page of one status's jobs continues after (the byStatus index's key and the id). */
export const jobPageKey = z
  .object({
    id: z.string().regex(JOB_ID),
    status: z.enum(['ACTIVE', 'INACTIVE']),
    createdAt: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();
export type JobPageKey = z.infer<typeof jobPageKey>;

/** What cancelling a job recorded: the job as it now is, or why it could not. */
export type CancelOutcome = { cancelled: JobItem } | { refused: 'finished' | 'moved' };

/** The error a cancelled job carries (phase FAILED). */
export const CANCELLED = 'cancelled';

export interface JobStore {
  create(job: JobItem): Promise<void>;
  get(id: string): Promise<JobItem | undefined>;
  /**
   * The most recently created job with this name: among `tenant`'s jobs when given, among the jobs
   * without a tenant (auth off) otherwise.
   */
  latestByName(name: string, tenant?: string): Promise<JobItem | undefined>;
  /** Every ACTIVE job, oldest first (the dispatcher's sweep). */
  listActive(): Promise<JobItem[]>;
  /** At most `limit` ACTIVE jobs, oldest first, after `after`; a page also stops short of 4 MB. */
  pageActive(page: { limit: number; after?: ActiveJobKey }): Promise<JobPage>;
  /**
   * At most `limit` jobs of `status`, NEWEST first, after `after` (the job history); a page also
   * stops short of 4 MB.
   */
  pageByStatus(status: JobStatus, page: { limit: number; after?: JobPageKey }): Promise<JobPage>;
  /**
   * ACTIVE -> INACTIVE/FAILED with error CANCELLED, if the job is still in the phase and attempt
   * `seen` was read in: `moved` when it changed meanwhile, `finished` when it was already over.
   */
  cancel(seen: JobItem, now: number): Promise<CancelOutcome>;
  /** QUEUED -> RUNNING as attempt `attempt` (= attempts + 1); undefined if someone else moved it. */
  claim(id: string, attempt: number, receiptHandle: string, now: number): Promise<JobItem | undefined>;
  setWorker(id: string, attempt: number, worker: string): Promise<boolean>;
  heartbeat(id: string, attempt: number, now: number): Promise<boolean>;
  setTotal(
    id: string,
    attempt: number,
    total: number,
    modelErrors: Partial<Record<ModelName, string>>,
    now: number,
  ): Promise<boolean>;
  progress(id: string, attempt: number, done: number, now: number): Promise<boolean>;
  /** RUNNING -> INACTIVE (SUCCEEDED or FAILED). */
  finish(id: string, attempt: number, outcome: FinishOutcome): Promise<boolean>;
  /** RUNNING -> QUEUED: the attempt failed and another will follow. */
  requeue(id: string, attempt: number, error: string, now: number): Promise<boolean>;
  /** QUEUED -> INACTIVE/FAILED, for jobs that can never start. */
  failQueued(id: string, error: string, now: number): Promise<boolean>;
}
