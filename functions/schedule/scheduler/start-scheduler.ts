/**
 * The auto-scheduler on a timer, for the local runner (in AWS an EventBridge rule invokes
 * scheduler-handler.ts instead). Nothing starts at import time.
 */
import { readInt } from '../../../core/env';
import { schedulerDepsFromEnv } from '../deps';
import { runScheduler, type SchedulerDeps } from './scheduler';

export interface SchedulerHandle {
  stop(): Promise<void>;
}

export interface StartSchedulerOptions {
  /** Pause between the end of a pass and the start of the next; default SCHEDULE_INTERVAL_SECONDS (60). */
  intervalMs?: number;
  /** Default: DynamoDB stores and settings from the environment. */
  deps?: SchedulerDeps;
}

/**
 * Runs a pass now and then `intervalMs` after each pass ends (passes never overlap in one process;
 * across processes the conditional writes keep schedules consistent). stop() waits for a pass in flight.
 */
export function startScheduler(options: StartSchedulerOptions = {}): SchedulerHandle {
  const deps = options.deps ?? schedulerDepsFromEnv();
  const intervalMs =
    options.intervalMs ?? readInt('SCHEDULE_INTERVAL_SECONDS', 60, { min: 1, max: 3600 }) * 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = () => {
    running = runScheduler(deps)
      .then(() => undefined)
      .catch((err) => deps.log.error('auto-scheduler pass failed', { err }))
      .finally(() => {
        if (!stopped) timer = setTimeout(pass, intervalMs);
      });
  };
  pass();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
