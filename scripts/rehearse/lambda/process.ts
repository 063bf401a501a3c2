/**
 * Starts one Lambda function (lambda/child.ts) in its own process with exactly the environment given,
 * its output to a log file. `invoke` sends an event and waits (bounded) for the handler's result.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FromChild, ToChild } from './child';

export interface LambdaProcess {
  name: string;
  /** The API Gateway stand-in's URL, for an API function. */
  url?: string;
  logFile: string;
  invoke(event: unknown, timeoutMs?: number): Promise<unknown>;
  /** Handler errors seen so far (thrown by the handler, whoever triggered it). */
  handlerErrors: string[];
  stop(): Promise<void>;
}

const CHILD = join(import.meta.dirname, 'child.ts');
const TSX = createRequire(import.meta.url).resolve('tsx');

export async function startLambda(options: {
  name: string;
  bundleDir: string;
  handler: string;
  mode: 'api' | 'invoke';
  env: Record<string, string>;
  logDir: string;
  startTimeoutMs?: number;
}): Promise<LambdaProcess> {
  const { name, bundleDir, handler, mode, env, logDir, startTimeoutMs = 90_000 } = options;
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${name}.log`);
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', TSX, CHILD, name, bundleDir, handler, mode],
    { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const handlerErrors: string[] = [];
  const pending = new Map<number, (m: Extract<FromChild, { type: 'result' }>) => void>();
  let nextId = 1;
  const ready = new Promise<{ url?: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} not ready within ${startTimeoutMs} ms (log: ${logFile})`)),
      startTimeoutMs,
    );
    child.on('message', (message: FromChild) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message);
      } else if (message.type === 'handlerError') handlerErrors.push(message.error);
      else if (message.type === 'result') pending.get(message.id)?.(message);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(
        new Error(
          `${name} exited (code ${child.exitCode}) before it was ready: ${handlerErrors.join('; ')} (log: ${logFile})`,
        ),
      );
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    process.off('exit', killOnExit);
    log.end();
  };
  try {
    const { url } = await ready;
    return {
      name,
      url,
      logFile,
      handlerErrors,
      stop,
      invoke: (event, timeoutMs = 60_000) => {
        const id = nextId++;
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            pending.delete(id);
            reject(new Error(`${name}: no result within ${timeoutMs} ms`));
          }, timeoutMs);
          pending.set(id, (m) => {
            clearTimeout(timer);
            pending.delete(id);
            if (m.error) reject(new Error(`${name}: ${m.error}`));
            else resolve(m.result);
          });
          child.send({ type: 'invoke', id, event } satisfies ToChild);
        });
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
