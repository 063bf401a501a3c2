/**
 * Local workers: `node --import tsx functions/autoabr/entry/worker-main.ts <jobId> <attempt>`, a child of the
 * dispatcher with the dispatcher's environment. Exits are reported so a crashed worker's attempt ends
 * at once instead of at the heartbeat timeout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JobItem } from '../domain/job';
import { type ExitListener, type WorkerLauncher, workerArgs } from '../ports/worker-launcher';

const HERE = dirname(fileURLToPath(import.meta.url));
const WORKER_MAIN = join(HERE, '..', 'entry', 'worker-main.ts');
/** `--import tsx` resolves from the working directory: the repository root has tsx installed. */
const REPO_ROOT = join(HERE, '..', '..', '..');

export interface ProcessLauncherOptions {
  /** Where the children's stdout/stderr go (default: the dispatcher's). */
  stdio?: 'inherit' | 'ignore';
  env?: NodeJS.ProcessEnv;
}

export class ProcessLauncher implements WorkerLauncher {
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly options: ProcessLauncherOptions = {}) {}

  launch(job: JobItem, attempt: number, onExit: ExitListener): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', WORKER_MAIN, ...workerArgs(job, attempt)], {
        stdio: ['ignore', this.options.stdio ?? 'inherit', this.options.stdio ?? 'inherit'],
        env: this.options.env ?? process.env,
        cwd: REPO_ROOT,
      });
      this.children.add(child);
      child.once('error', (err) => {
        this.children.delete(child);
        reject(err);
      });
      child.once('spawn', () => resolve(`pid:${child.pid}`));
      child.once('exit', (code, signal) => {
        this.children.delete(child);
        onExit(code, signal);
      });
    });
  }

  async stopAll(): Promise<void> {
    const exits = [...this.children].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          // A worker ends its attempt and exits on SIGTERM; one that hangs is not allowed to block us.
          setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
        }),
    );
    await Promise.all(exits);
  }
}
