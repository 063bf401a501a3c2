/**
 * Ports without races. Our own Node servers listen on port 0 and report the port they got. Only a
 * server that must be told its port before it starts (DynamoDB Local, whose Java has no port 0; the
 * engine, whose own URL is part of its configuration) starts on a candidate port and, when another
 * process took that port first, tries again on another: a collision costs a retry, never a wrong server.
 */
import { createServer } from 'node:net';

/** The port is taken: the caller may try again on another. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(readonly port: number) {
    super(`port ${port} is already in use`);
  }
}

export function isPortInUse(err: unknown): boolean {
  return err instanceof PortInUseError || (err as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/** A port the OS called free a moment ago: only a candidate, as anyone may take it before we do. */
export function candidatePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server with `start(port)`: on the given port (npm start's fixed ones, no retry), or with
 * `port` 0 on candidate ports until one is not taken (at most `attempts`). `start` must fail with
 * PortInUseError or EADDRINUSE on a collision, having cleaned up after itself.
 */
export async function startOnPort<T>(
  port: number,
  start: (port: number) => Promise<T>,
  attempts = 5,
): Promise<T> {
  if (port !== 0) return start(port);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await candidatePort());
    } catch (err) {
      if (!isPortInUse(err) || attempt >= attempts) throw err;
    }
  }
}
