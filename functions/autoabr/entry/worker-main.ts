/**
 * The worker's entry: `worker-main.ts <jobId> <attempt>` (locally through tsx; in the worker image the
 * bundled `dist/worker.mjs`). Exits 0 once the attempt's end is recorded, whatever it was; anything else
 * means the dispatcher (or the heartbeat timeout) has to end the attempt.
 */

import { applyCloudEnv } from '../config/cloud-config';
import { loadDotEnv } from '../config/dotenv';
import { runAttempt } from '../worker/run-attempt';
import { log, workerDeps } from './deps';

async function main(): Promise<number> {
  const [jobId, attemptText] = process.argv.slice(2);
  const attempt = Number(attemptText);
  if (!jobId || !Number.isInteger(attempt) || attempt < 1) {
    process.stderr.write('usage: worker-main <jobId> <attempt>\n');
    return 2;
  }
  // ECS stops a task with SIGTERM: end the attempt (a retry follows) rather than vanish mid-write.
  const stop = new AbortController();
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => stop.abort(sig));
  const end = await runAttempt(workerDeps(), jobId, attempt, stop.signal);
  log.info('worker done', { jobId, attempt, end });
  return 0;
}

loadDotEnv();
applyCloudEnv();
main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    log.error('worker crashed', { err });
    process.exitCode = 1;
  },
);
