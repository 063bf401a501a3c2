/**
 * How an attempt ends, in one place for the worker, the dispatcher's timeout sweep and the local
 * child-exit watch: success deletes the message; a permanent failure (bad reference, ffmpeg refusing the
 * input) ends the job at once; any other failure is retried (a fresh, delayed message) until the job's
 * attempts run out, and then the job is INACTIVE with the error and its message is dead-lettered.
 */
import type { Logger } from '../../../core/logger';
import { type AttemptEnd, retryDelaySeconds } from '../domain/attempt-policy';
import type { JobItem } from '../domain/job';
import { jobMessage } from '../domain/job-message';
import type { JobQueue } from '../ports/job-queue';
import type { JobStore } from '../ports/job-store';

export interface AttemptDeps {
  jobs: JobStore;
  queue: JobQueue;
  now(): number;
  log: Logger;
}

async function settle(deps: AttemptDeps, what: string, op: () => Promise<void>): Promise<void> {
  // The job's state is already recorded; a message we fail to settle just comes back and is dropped
  // (its job is no longer QUEUED).
  try {
    await op();
  } catch (err) {
    deps.log.warn('could not settle job message', { what, err });
  }
}

export async function succeedAttempt(deps: AttemptDeps, job: JobItem, attempt: number): Promise<AttemptEnd> {
  const ok = await deps.jobs.finish(job.id, attempt, { phase: 'SUCCEEDED', now: deps.now() });
  if (!ok) return 'LOST';
  if (job.receiptHandle) await settle(deps, 'delete', () => deps.queue.delete(job.receiptHandle!));
  return 'SUCCEEDED';
}

export async function failAttempt(
  deps: AttemptDeps,
  job: JobItem,
  attempt: number,
  error: string,
  permanent: boolean,
): Promise<AttemptEnd> {
  const now = deps.now();
  const handle = job.receiptHandle;
  if (!permanent && attempt < job.maxAttempts) {
    const ok = await deps.jobs.requeue(job.id, attempt, `attempt ${attempt} failed: ${error}`, now);
    if (!ok) return 'LOST';
    // A fresh message rather than the old one made visible again: the old receipt handle may have
    // lapsed (a worker too slow to renew its lease), and a fresh message starts its receive count anew.
    const delay = retryDelaySeconds(attempt);
    try {
      await deps.queue.send(job.id, delay);
      if (handle) await settle(deps, 'delete', () => deps.queue.delete(handle));
    } catch (err) {
      deps.log.warn('could not send the retry message, releasing the old one', { jobId: job.id, err });
      if (handle) await settle(deps, 'release', () => deps.queue.release(handle, delay));
    }
    deps.log.warn('job attempt failed, retrying', { jobId: job.id, attempt, error });
    return 'RETRYING';
  }
  const message = permanent || job.maxAttempts <= 1 ? error : `failed after ${attempt} attempts: ${error}`;
  const ok = await deps.jobs.finish(job.id, attempt, { phase: 'FAILED', error: message, now });
  if (!ok) return 'LOST';
  if (handle) {
    await settle(deps, permanent ? 'delete' : 'dead-letter', () =>
      permanent ? deps.queue.delete(handle) : deps.queue.deadLetter(handle, jobMessage(job.id), message),
    );
  }
  deps.log.warn('job failed', { jobId: job.id, attempt, error: message });
  return 'FAILED';
}
