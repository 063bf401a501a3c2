import type { WorkerLauncher } from '../ports/worker-launcher';
import type { AttemptDeps } from '../worker/end-attempt';

/** The limits a tick works within (AUTOABR_MAX_WORKERS and the timeouts, see config/). */
export interface DispatchLimits {
  maxWorkers: number;
  /** How long a received message stays invisible: the worker renews it while it runs. */
  leaseSeconds: number;
  /** A RUNNING job without a heartbeat for this long has lost its worker. */
  heartbeatTimeoutMs: number;
  /** A job still QUEUED after this long is given up. */
  queuedTimeoutMs: number;
}

export interface DispatcherDeps extends AttemptDeps {
  launcher: WorkerLauncher;
  config: DispatchLimits;
}
