/**
 * The first half of a tick: end the attempts whose worker went silent (retried or failed as the attempt
 * rules say), and give up on jobs that waited in the queue too long, so no job stays ACTIVE forever.
 */
import { lastSignOfLife, staleJobs } from '../domain/attempt-policy';
import { failAttempt } from '../worker/end-attempt';
import type { DispatcherDeps } from './dispatcher-deps';

/** The jobs swept, and how many workers still run afterwards. */
export async function sweep(deps: DispatcherDeps): Promise<{ swept: string[]; running: number }> {
  const now = deps.now();
  const active = await deps.jobs.listActive();
  const swept: string[] = [];
  for (const job of staleJobs(active, now, deps.config.heartbeatTimeoutMs)) {
    const silentFor = Math.round((now - lastSignOfLife(job)) / 1000);
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
