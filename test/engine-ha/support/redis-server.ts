/**
 * A real redis-server for a test file: its own process on a free loopback port, stopped (and killed if
 * need be) when the test ends or the runner exits. Nothing is written to disk unless `dir` is given:
 * then it keeps an append-only file there, so a restart on the same port and folder keeps the data.
 */
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { waitFor } from '../../../core/wait-for';
import { PortInUseError, startOnPort } from '../../../local/ports';

export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /** 0 or omitted: a free port (redis-server cannot take port 0, which turns TCP off: collisions retry). */
  port?: number;
  /** Keep an append-only file in this folder (survives a restart); omitted: memory only. */
  dir?: string;
}

export function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  return startOnPort(options.port ?? 0, (port) => launch(port, options.dir));
}

async function launch(port: number, dir: string | undefined): Promise<RedisServer> {
  const persistence = dir
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir]
    : ['--appendonly', 'no'];
  const child = spawn(
    process.env.REDIS_SERVER_PATH ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence],
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
  // An early exit is a failed bind (the one way a fresh, diskless redis-server stops on its own).
  const bindFailed = exited.then(() => {
    throw new PortInUseError(port);
  });
  try {
    await Promise.race([
      waitFor(ping, Boolean, { what: 'redis-server to answer PING', timeoutMs: 10_000 }),
      bindFailed,
    ]);
  } catch (err) {
    process.off('exit', killOnExit);
    child.kill('SIGKILL');
    throw err;
  }
  bindFailed.catch(() => undefined);
  return {
    url,
    port,
    pid: child.pid!,
    stop: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
