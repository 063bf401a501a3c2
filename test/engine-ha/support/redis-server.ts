/**
 * A real redis-server for a test file: its own process on a free loopback port, nothing written to
 * disk, stopped (and killed if need be) when the test ends or the runner exits.
 */
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../../local/ports';
import { waitFor } from '../../support/wait-for';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    process.env.REDIS_SERVER_PATH ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  const ping = async () => {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined); // "not up yet" is the answer the loop waits through
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } finally {
      probe.disconnect();
    }
  };
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
      return ping();
    },
    Boolean,
    { what: 'redis-server to answer PING', timeoutMs: 10_000 },
  );
  return {
    url,
    stop: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
