/**
 * One dispatcher tick: end attempts whose worker went silent, then start a worker for each queued job
 * while there is room. Room is the global cap (AUTOABR_MAX_WORKERS) and each job's own pipeline
 * `maxParallelWorkers`; a job without room goes back on the queue as a fresh message (so waiting never
 * counts as a failed delivery towards the dead-letter queue). Ticks are idempotent: each state change
 * is a conditional write.
 */
import type { ReceivedJob } from '../ports/job-queue';
import { failAttempt } from '../worker/end-attempt';
import type { DispatcherDeps } from './dispatcher-deps';
import { sweep } from './sweep';
import { onWorkerExit } from './worker-exit';

export interface TickReport {
  /** Jobs whose running attempt was ended for lack of heartbeats, or that waited too long. */
  swept: string[];
  started: string[];
  /** Jobs put back because their pipeline's worker limit was reached. */
  deferred: string[];
}

/** Seconds a job waits before its next look when its pipeline has no room. */
const DEFER_SECONDS = 5;

/** What became of one message; a worker that could not start leaves its job to a retry. */
type Outcome = 'started' | 'deferred' | 'dropped' | 'launch-failed';

export async function dispatchOnce(deps: DispatcherDeps): Promise<TickReport> {
  const { swept, running: runningAtStart } = await sweep(deps);
  const report: TickReport = { swept, started: [], deferred: [] };
  let running = runningAtStart;
  // Each pass receives at most the free room; stop when a pass starts nothing.
  for (let pass = 0; pass < 10 && running < deps.config.maxWorkers; pass++) {
    const messages = await deps.queue.receive(deps.config.maxWorkers - running, deps.config.leaseSeconds);
    if (messages.length === 0) break;
    let startedThisPass = 0;
    for (const msg of messages) {
      const outcome = await handleMessage(deps, msg, running);
      if (outcome === 'started' || outcome === 'launch-failed') startedThisPass++;
      if (outcome === 'started') {
        running++;
        report.started.push(msg.jobId!);
      } else if (outcome === 'deferred') {
        report.deferred.push(msg.jobId!);
      }
    }
    if (startedThisPass === 0) break;
  }
  return report;
}

async function handleMessage(deps: DispatcherDeps, msg: ReceivedJob, running: number): Promise<Outcome> {
  if (!msg.jobId) {
    await deps.queue.deadLetter(msg.receiptHandle, msg.body, 'not a job message');
    return 'dropped';
  }
  const job = await deps.jobs.get(msg.jobId);
  if (job?.phase !== 'QUEUED') {
    // A duplicate or a leftover: the job runs under another copy, finished, or is gone. Whoever ends
    // a running attempt sends a fresh message if a retry is due, so this one is not needed.
    await deps.queue.delete(msg.receiptHandle);
    return 'dropped';
  }
  if (running >= Math.min(deps.config.maxWorkers, job.pipeline.maxParallelWorkers)) {
    await deps.queue.send(job.id, DEFER_SECONDS);
    await deps.queue.delete(msg.receiptHandle);
    return 'deferred';
  }
  const attempt = job.attempts + 1;
  const claimed = await deps.jobs.claim(job.id, attempt, msg.receiptHandle, deps.now());
  if (!claimed) {
    await deps.queue.delete(msg.receiptHandle);
    return 'dropped';
  }
  try {
    const where = await deps.launcher.launch(claimed, attempt, (code, signal) => {
      onWorkerExit(deps, job.id, attempt, code, signal).catch((err) =>
        deps.log.error('could not record a worker exit', { jobId: job.id, err }),
      );
    });
    await deps.jobs.setWorker(job.id, attempt, where);
    deps.log.info('worker started', { jobId: job.id, attempt, worker: where });
    return 'started';
  } catch (err) {
    await failAttempt(deps, claimed, attempt, `could not start a worker: ${(err as Error).message}`, false);
    return 'launch-failed';
  }
}
