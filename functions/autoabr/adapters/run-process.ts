/** Runs a program to completion, keeping only the tail of its stderr (ffmpeg can be chatty). */
import { spawn } from 'node:child_process';
import type { ProcessResult } from '../ports/ffmpeg-runner';

export interface RunOptions {
  /** How much of stderr's end to keep (default 4 KiB). */
  tailBytes?: number;
  /** Bounded stdout capture (for `-h` style queries); beyond it stdout is dropped. */
  maxStdoutBytes?: number;
  signal?: AbortSignal;
}

export function runProcess(
  program: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<ProcessResult> {
  const tailBytes = options.tailBytes ?? 4096;
  const maxStdout = options.maxStdoutBytes ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < maxStdout) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-tailBytes);
    });
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
