/**
 * `npm start --in-memory` as a child process, every port free (0) and bound to 127.0.0.1: the system a
 * user runs, in a process of its own so the soak reads that process's memory alone. Its URLs are read
 * from what it prints once up; everything it says after goes to a log file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { killWhenParentDies } from '../../../local/parent-watchdog';

const REPO = path.resolve(import.meta.dirname, '../../..');
const STARTED_LINE = 'Ctrl-C stops everything.';
const STARTUP_TIMEOUT_MS = 300_000;
const PORT_VARIABLES = [
  'CHANNEL_API_PORT',
  'SCHEDULE_API_PORT',
  'AUTOABR_API_PORT',
  'ENGINE_PORT',
  'CONSOLE_PORT',
  'DYNAMODB_LOCAL_PORT',
  'FAUXQS_PORT',
];

export interface LocalSystem {
  /** `channel`, `engine`, ... as `npm start` prints them. */
  urls: Record<string, string>;
  pid: number;
  /** Ctrl-C, as a user stops it; resolves when it exited. */
  stop(): Promise<void>;
}

/** The `  name   url` lines `npm start` prints once up. Pure. */
export function parseStartedUrls(lines: readonly string[]): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const line of lines) {
    const m = line.match(/^\s+([\w+]+)\s+(https?:\/\/\S+)$/);
    if (m) urls[m[1]!] = m[2]!;
  }
  return urls;
}

export async function startLocalSystem(logFile: string): Promise<LocalSystem> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BIND_HOST: '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  for (const name of PORT_VARIABLES) env[name] = '0';
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO, 'bin/start.ts'), '--in-memory'],
    { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const watchdog = killWhenParentDies(child.pid!);
  const out = createWriteStream(logFile);
  child.stderr!.pipe(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
    watchdog.stop();
  };
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout! });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start was not up within ${STARTUP_TIMEOUT_MS} ms (see ${logFile})`)),
        STARTUP_TIMEOUT_MS,
      );
      reader.on('line', (line) => {
        out.write(`${line}\n`);
        lines.push(line);
        if (line.includes(STARTED_LINE)) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => reject(new Error(`npm start exited (see ${logFile})`)));
    });
  } catch (e) {
    await stop();
    throw e;
  }
  return { urls: parseStartedUrls(lines), pid: child.pid!, stop };
}
