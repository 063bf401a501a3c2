import type { AttemptDeps } from '../worker/end-attempt';
import { failAttempt } from '../worker/end-attempt';

/**
 * Ends the attempt of a worker that exited without ending it itself (crash, kill), at once rather than
 * at the heartbeat timeout. Only local child processes report their exits.
 */
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
