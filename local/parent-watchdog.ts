/**
 * A child process of `npm start` must not outlive it, however it ends: Ctrl-C and SIGTERM stop the
 * children in order, a Node crash runs the 'exit' hook, but `kill -9` runs nothing of ours. A small
 * shell loop beside the child covers that case: it polls both pids every second and, once the parent
 * is gone, kills the child. It exits by itself when the child exits first.
 */
import { spawn } from 'node:child_process';

export interface Watchdog {
  stop(): void;
}

export function killWhenParentDies(childPid: number, parentPid = process.pid): Watchdog {
  const alive = (pid: number) => `kill -0 ${pid} 2>/dev/null`;
  const script = [
    `while ${alive(parentPid)} && ${alive(childPid)}; do sleep 1; done`,
    `if ! ${alive(parentPid)}; then kill -9 ${childPid} 2>/dev/null; fi`,
  ].join('; ');
  const watcher = spawn('/bin/sh', ['-c', script], { stdio: 'ignore' });
  watcher.on('error', () => undefined);
  // The watchdog never keeps this process alive.
  watcher.unref();
  return { stop: () => watcher.kill('SIGKILL') };
}
