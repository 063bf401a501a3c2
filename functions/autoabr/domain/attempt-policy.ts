/**
 * The rules an attempt lives by, whoever applies them (the worker, the dispatcher's sweep, the local
 * child-exit watch): which failures are final, how long a retry waits, and when a silent worker is gone.
 */
import type { JobItem } from './job';

/** A failure that another attempt would only repeat (bad reference, ffmpeg refusing the input). */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/** How an attempt ended; LOST = someone else had already ended it (its writes were refused). */
export type AttemptEnd = 'SUCCEEDED' | 'FAILED' | 'RETRYING' | 'LOST';

/** Seconds before a failed attempt's message is visible again: 5 s, 10 s, 20 s... up to a minute. */
export const retryDelaySeconds = (attempt: number): number => Math.min(60, 5 * 2 ** Math.max(0, attempt - 1));

/** When a job last showed a sign of life. */
export const lastSignOfLife = (job: JobItem): number => job.heartbeatAt ?? job.startedAt ?? job.createdAt;

/** RUNNING jobs without a heartbeat for `heartbeatTimeoutMs`: their workers are gone. */
export function staleJobs(active: readonly JobItem[], now: number, heartbeatTimeoutMs: number): JobItem[] {
  return active.filter((j) => j.phase === 'RUNNING' && now - lastSignOfLife(j) > heartbeatTimeoutMs);
}
