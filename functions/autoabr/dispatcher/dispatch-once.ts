/**
 * The dispatcher: one tick ends attempts whose worker went silent, then starts a worker for each queued
 * job while there is room. Room is the global cap (AUTOABR_MAX_WORKERS) and each job's own pipeline
 * `maxParallelWorkers`; a job without room goes back on the queue as a fresh message (so waiting never
 * counts as a failed delivery towards the dead-letter queue). Locally a timer runs the tick; in AWS a
 * scheduled Lambda does. Ticks are idempotent: each state change is a conditional write.
 */

import type { DispatcherConfig } from '../config/service-config';
import type { JobItem } from '../domain/job';
import type { WorkerLauncher } from '../ports/worker-launcher';
import { type AttemptDeps, failAttempt } from '../worker/end-attempt';

export interface DispatcherDeps extends AttemptDeps {
  launcher: WorkerLauncher;
  config: Pick<DispatcherConfig, 'maxWorkers' | 'leaseSeconds' | 'heartbeatTimeoutMs' | 'queuedTimeoutMs'>;
}

export interface TickReport {
  /** Jobs whose running attempt was ended for lack of heartbeats, or that waited too long. */
  swept: string[];
  started: string[];
  /** Jobs put back because their pipeline's worker limit was reached. */
  deferred: string[];
}

/** Seconds a job waits before its next look when its pipeline has no room. */
const DEFER_SECONDS = 5;

/** RUNNING jobs without a heartbeat for `heartbeatTimeoutMs`: their workers are gone. */
export function staleJobs(active: readonly JobItem[], now: number, heartbeatTimeoutMs: number): JobItem[] {
  return active.filter(
    (j) => j.phase === 'RUNNING' && now - (j.heartbeatAt ?? j.startedAt ?? j.createdAt) > heartbeatTimeoutMs,
  );
}

export async function sweep(deps: DispatcherDeps): Promise<{ swept: string[]; running: number }> {
  const now = deps.now();
  const active = await deps.jobs.listActive();
  const swept: string[] = [];
  for (const job of staleJobs(active, now, deps.config.heartbeatTimeoutMs)) {
    const silentFor = Math.round((now - (job.heartbeatAt ?? job.startedAt ?? job.createdAt)) / 1000);
    const end = await failAttempt(
      deps,
      job,
      job.attempts,
      `worker ${job.worker ?? '(unknown)'} sent no heartbeat for ${silentFor} s (killed, crashed or stuck)`,
      false,
    );
    if (end !== 'LOST') swept.push(job.id);
  }
  for (const job of active) {
    if (job.phase === 'QUEUED' && now - job.createdAt > deps.config.queuedTimeoutMs) {
      const hours = Math.round(deps.config.queuedTimeoutMs / 360_000) / 10;
      if (await deps.jobs.failQueued(job.id, `no worker started it within ${hours} h`, now))
        swept.push(job.id);
    }
  }
  const running = active.filter((j) => j.phase === 'RUNNING' && !swept.includes(j.id)).length;
  return { swept, running };
}

/** Ends the attempt of a worker that exited without ending it itself (crash, kill). */
export async function onWorkerExit(
  deps: AttemptDeps,
  jobId: string,
  attempt: number,
  code: number | null,
  signal: NodeJS.Signals | null,
): Promise<void> {
  const job = await deps.jobs.get(jobId);
  if (job?.phase !== 'RUNNING' || job.attempts !== attempt) return;
  const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
  await failAttempt(
    deps,
    job,
    attempt,
    `worker ${job.worker ?? ''} ${how} before finishing`.replace('  ', ' '),
    false,
  );
}

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
      if (!msg.jobId) {
        await deps.queue.deadLetter(msg.receiptHandle, msg.body, 'not a job message');
        continue;
      }
      const job = await deps.jobs.get(msg.jobId);
      if (job?.phase !== 'QUEUED') {
        // A duplicate or a leftover: the job runs under another copy, finished, or is gone. Whoever ends
        // a running attempt sends a fresh message if a retry is due, so this one is not needed.
        await deps.queue.delete(msg.receiptHandle);
        continue;
      }
      if (running >= Math.min(deps.config.maxWorkers, job.pipeline.maxParallelWorkers)) {
        await deps.queue.send(job.id, DEFER_SECONDS);
        await deps.queue.delete(msg.receiptHandle);
        report.deferred.push(job.id);
        continue;
      }
      const attempt = job.attempts + 1;
      const claimed = await deps.jobs.claim(job.id, attempt, msg.receiptHandle, deps.now());
      if (!claimed) {
        await deps.queue.delete(msg.receiptHandle);
        continue;
      }
      running++;
      startedThisPass++;
      try {
        const where = await deps.launcher.launch(claimed, attempt, (code, signal) => {
          onWorkerExit(deps, job.id, attempt, code, signal).catch((err) =>
            deps.log.error('could not record a worker exit', { jobId: job.id, err }),
          );
        });
        await deps.jobs.setWorker(job.id, attempt, where);
        report.started.push(job.id);
        deps.log.info('worker started', { jobId: job.id, attempt, worker: where });
      } catch (err) {
        running--;
        await failAttempt(
          deps,
          claimed,
          attempt,
          `could not start a worker: ${(err as Error).message}`,
          false,
        );
      }
    }
    if (startedThisPass === 0) break;
  }
  return report;
}

export interface Dispatcher {
  stop(): Promise<void>;
}

/** Ticks every `intervalMs` (never two at once) until stopped; stopping also stops local workers. */
export function startDispatcher(deps: DispatcherDeps, intervalMs: number): Dispatcher {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const tick = () => {
    current = dispatchOnce(deps)
      .catch((err) => deps.log.error('dispatcher tick failed', { err }))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
      await deps.launcher.stopAll();
    },
  };
}
