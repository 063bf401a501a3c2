/**
 * Runs a long, chatty tool (mmdebstrap, podman build) to completion: its whole output goes to a log
 * file, and the end of it is kept for the report when it fails (a failed build must show why).
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export interface LoggedRunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where the whole output (stdout and stderr, interleaved) is written. */
  logFile: string;
  /** Also pass the output through to this process's stderr as it comes. */
  echo?: boolean;
}

export class ToolFailedError extends Error {
  override name = 'ToolFailedError';
}

const TAIL_LINES = 150;

export function runLogged(
  command: string,
  args: readonly string[],
  options: LoggedRunOptions,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const log = createWriteStream(options.logFile);
    let tail: string[] = [];
    const keep = (chunk: Buffer) => {
      log.write(chunk);
      if (options.echo) process.stderr.write(chunk);
      tail = tail.concat(chunk.toString().split('\n')).slice(-TAIL_LINES);
    };
    const child = spawn(command, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (err) => {
      log.end();
      reject(new ToolFailedError(`cannot run ${command}: ${err.message}`));
    });
    child.once('close', (code, signal) => {
      log.end(() => {
        if (code === 0) return resolve();
        const how = signal ?? `exit ${code}`;
        reject(
          new ToolFailedError(
            `${command} ${args.join(' ')} failed (${how}); the end of its output (all of it: ${options.logFile}):\n` +
              tail.join('\n'),
          ),
        );
      });
    });
  });
}
