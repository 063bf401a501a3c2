/**
 * A small load balancer for the failover tests: each request goes to the next backend in turn; a
 * backend that refuses the connection (a killed engine) is skipped and the next one tried, as a load
 * balancer's health check would soon do. Loopback only.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnections } from '../../../local/gateway';

export interface RoundRobinProxy {
  url: string;
  /** Requests answered by each backend port, and requests that found no backend. */
  served: Map<number | 'none', number>;
  close(): Promise<void>;
}

function forward(port: number, path: string): Promise<{ status: number; headers: object; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('backend timed out')));
    req.on('error', reject);
    req.end();
  });
}

export async function startRoundRobinProxy(backends: () => readonly number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const served = new Map<number | 'none', number>();
  const count = (key: number | 'none') => served.set(key, (served.get(key) ?? 0) + 1);
  const server: Server = createServer(async (req, res) => {
    const ports = backends();
    for (let tried = 0; tried < ports.length; tried++) {
      const port = ports[next++ % ports.length]!;
      try {
        const answer = await forward(port, req.url ?? '/');
        count(port);
        res.writeHead(answer.status, { ...answer.headers, 'x-backend': String(port) });
        res.end(answer.body);
        return;
      } catch {
        // Dead or dying backend: the next one answers.
      }
    }
    count('none');
    res.writeHead(502).end('no backend');
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
