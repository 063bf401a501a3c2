/**
 * The worker's entry: `worker-main.ts <jobId> <attempt>` (locally through tsx; in the worker image the
 * bundled `dist/worker.mjs`). Exits 0 once the attempt's end is recorded, whatever it was; anything else
 * means the dispatcher (or the heartbeat timeout) has to end the attempt.
 *
 * This is a process of its own, so it is the one place AutoABR reads a `.env` file (from the working
 * directory, the repository root for local workers) into its environment, before reading its
 * configuration: variables already set always win.
 */
import { createLogger } from '../../../core/logger';
import { loadDotEnv } from '../config/dotenv';
import { workerConfigFromEnv } from '../config/service-config';
import { runAttempt } from '../worker/run-attempt';
import { buildWorkerDeps } from './build-worker-deps';

async function main(args: string[]): Promise<number> {
  const [jobId, attemptText] = args;
  const attempt = Number(attemptText);
  if (!jobId || !Number.isInteger(attempt) || attempt < 1) {
    process.stderr.write('usage: worker-main <jobId> <attempt>\n');
    return 2;
  }
  loadDotEnv('.env', process.env);
  const deps = buildWorkerDeps(workerConfigFromEnv(process.env));
  // ECS stops a task with SIGTERM: end the attempt (a retry follows) rather than vanish mid-write.
  const stop = new AbortController();
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => stop.abort(sig));
  try {
    const end = await runAttempt(deps, jobId, attempt, stop.signal);
    deps.log.info('worker done', { jobId, attempt, end });
    return 0;
  } catch (err) {
    deps.log.error('worker crashed', { jobId, attempt, err });
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    // A configuration error: the worker never got as far as the job.
    createLogger({ service: 'autoabr' }).error('worker failed to start', { err });
    process.exitCode = 1;
  },
);
