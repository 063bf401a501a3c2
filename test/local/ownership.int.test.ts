/**
 * `npm start` owns its DynamoDB Local: it dies with it (even on kill -9), a second onair on the same
 * data folder is refused, and a port held by a stranger is refused with what to do.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../core/process/is-alive';
import { waitFor } from '../../core/wait-for';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { readOwner } from '../../local/owner-file';

const root = join(import.meta.dirname, '..', '..');
const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `npm start` as a user runs it (bin/start.ts), on free ports, with its output collected. */
function npmStart(dataDir: string): { child: ChildProcess; output: () => string } {
  const ports = ['CHANNEL_API_PORT', 'SCHEDULE_API_PORT', 'AUTOABR_API_PORT', 'ENGINE_PORT'];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DYNAMODB_LOCAL_PORT: '0',
    FAUXQS_PORT: '0',
    LOG_LEVEL: 'warn',
  };
  for (const name of ports) env[name] = '0';
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/start.ts', '--data-dir', dataDir], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

const exitOf = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((r) => child.once('exit', r));

describe('npm start and its DynamoDB Local', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'onair-owner-'));
  let first: ReturnType<typeof npmStart>;

  it('records which process owns the data folder once it runs', async () => {
    first = npmStart(dataDir);
    await waitFor(first.output, (out) => out.includes('onair is running'), {
      timeoutMs: 90_000,
      what: 'npm start',
    });
    const owner = readOwner(join(dataDir, 'dynamodb'));
    expect(owner?.ownerPid).toBe(first.child.pid);
    expect(isAlive(owner!.jvmPid)).toBe(true);
  }, 120_000);

  it('refuses a second start on the same data folder, saying what to do', async () => {
    const second = npmStart(dataDir);
    expect(await exitOf(second.child)).toBe(1);
    expect(second.output()).toMatch(/in use by another onair \(pid \d+.*another --data-dir/s);
  }, 60_000);

  it('takes DynamoDB Local down with it when killed with SIGKILL', async () => {
    const { jvmPid } = readOwner(join(dataDir, 'dynamodb'))!;
    first.child.kill('SIGKILL');
    await waitFor(
      () => isAlive(jvmPid),
      (alive) => !alive,
      { timeoutMs: 15_000, what: `DynamoDB Local (pid ${jvmPid}) to exit` },
    );
  }, 30_000);
});

describe('a DynamoDB Local port held by another program', () => {
  let stranger: Server;
  afterAll(() => new Promise<void>((resolve) => stranger.close(() => resolve())));

  it('is refused with the port and the setting that moves it', async () => {
    stranger = createServer();
    await new Promise<void>((resolve) => stranger.listen(0, '0.0.0.0', resolve));
    const address = stranger.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await expect(startDynamoDbLocal({ port })).rejects.toThrow(
      new RegExp(`port ${port} \\(DynamoDB Local\\) is in use.*DYNAMODB_LOCAL_PORT`),
    );
  }, 60_000);
});
