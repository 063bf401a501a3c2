/**
 * One attempt at one job, from claim to end: measure the job in a folder of its own while a heartbeat
 * keeps the job store (heartbeatAt) and the queue (the message's lease) informed, then record how the
 * attempt ended. A stop signal (SIGTERM from ECS) ends the attempt as a failure to retry.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../../core/logger';
import { type AttemptEnd, PermanentJobError } from '../domain/attempt-policy';
import type { JobItem } from '../domain/job';
import { EngineError } from '../domain/libvmaf';
import { failAttempt, succeedAttempt } from './end-attempt';
import { AttemptLost, measure } from './measure';
import type { WorkerDeps } from './worker-deps';

export async function runAttempt(
  deps: WorkerDeps,
  jobId: string,
  attempt: number,
  stop?: AbortSignal,
): Promise<AttemptEnd> {
  const job = await deps.jobs.get(jobId);
  if (job?.phase !== 'RUNNING' || job.attempts !== attempt) return 'LOST';
  const log = deps.log.child({ jobId, attempt });
  const abort = new AbortController();
  const onStop = () => abort.abort(new Error(`worker stopped (${String(stop?.reason ?? 'signal')})`));
  stop?.addEventListener('abort', onStop, { once: true });
  const beat = startHeartbeat(deps, job, attempt, abort, log);

  let dir: string | undefined;
  try {
    // The folder is named after the id, but only its letters, digits and hyphens reach the path.
    dir = await mkdtemp(join(deps.workDir, `autoabr-${jobId.slice(0, 8).replace(/[^A-Za-z0-9-]/g, '_')}-`));
    await measure(deps, job, attempt, dir, abort.signal);
    log.info('job succeeded');
    return await succeedAttempt(deps, job, attempt);
  } catch (err) {
    const reason = abort.signal.aborted ? abort.signal.reason : err;
    if (reason instanceof AttemptLost) return 'LOST';
    const permanent = reason instanceof PermanentJobError || reason instanceof EngineError;
    const message = reason instanceof Error ? reason.message : String(reason);
    if (!(reason instanceof PermanentJobError)) log.error('job attempt crashed', { err: reason });
    return await failAttempt(deps, job, attempt, message, permanent);
  } finally {
    clearInterval(beat);
    stop?.removeEventListener('abort', onStop);
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Every `heartbeatMs`: a fenced heartbeat write, then a lease renewal. A refused heartbeat means the
 * attempt was ended by someone else (a sweep, a retry): the attempt is aborted as lost.
 */
function startHeartbeat(
  deps: WorkerDeps,
  job: JobItem,
  attempt: number,
  abort: AbortController,
  log: Logger,
): NodeJS.Timeout {
  return setInterval(() => {
    void (async () => {
      try {
        if (!(await deps.jobs.heartbeat(job.id, attempt, deps.now()))) {
          abort.abort(new AttemptLost('the attempt was ended by someone else'));
          return;
        }
        if (job.receiptHandle) await deps.queue.extend(job.receiptHandle, deps.leaseSeconds);
      } catch (err) {
        log.warn('heartbeat failed', { err });
      }
    })();
  }, deps.heartbeatMs);
}
