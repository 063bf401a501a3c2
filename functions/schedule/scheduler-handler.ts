/**
 * Lambda entry of the auto-scheduler, invoked by an EventBridge schedule rule: one pass over every
 * feed. Returns a summary (visible in the invocation result and the logs).
 */
import { schedulerDepsFromEnv } from './deps';
import { runScheduler, type SchedulerDeps } from './scheduler/scheduler';

let deps: SchedulerDeps | undefined;

export async function handler(): Promise<{ feeds: number; added: number; expired: number; errors: number }> {
  deps ??= schedulerDepsFromEnv();
  const results = await runScheduler(deps);
  return {
    feeds: results.length,
    added: results.reduce((n, r) => n + r.added, 0),
    expired: results.reduce((n, r) => n + r.expired, 0),
    errors: results.filter((r) => r.outcome === 'error').length,
  };
}
