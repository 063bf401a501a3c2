/** Starting a worker for one attempt of a job: a child process locally, an ECS task in AWS. */
import type { JobItem } from '../domain/job';

export type ExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;

export interface WorkerLauncher {
  /** Starts the worker and returns where it runs (`pid:<n>`, a task ARN). */
  launch(job: JobItem, attempt: number, onExit: ExitListener): Promise<string>;
  /** Stops every worker this launcher started and waits for them (local only; ECS tasks outlive us). */
  stopAll(): Promise<void>;
}

/** The worker's command line after the program: `<jobId> <attempt>`. */
export const workerArgs = (job: JobItem, attempt: number): string[] => [job.id, String(attempt)];
