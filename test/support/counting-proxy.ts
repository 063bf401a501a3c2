/**
 * A counting HTTP proxy: every request is forwarded to `target` as it is, and counted under the key
 * `keyOf` gives it, so a test or benchmark counts the requests a component really sends at the edge of
 * a stand-in (DynamoDB Local, the API Gateway stand-in), not calls of our own code. 127.0.0.1 only.
 */
import { Agent, createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnections } from '../../local/gateway';

export interface CountingProxy {
  url: string;
  /** Requests by key since the last reset. */
  counts(): Map<string, number>;
  total(): number;
  reset(): void;
  close(): Promise<void>;
}

export type RequestKey = (req: IncomingMessage, body: Buffer) => string;

/** DynamoDB's JSON protocol: the operation is the X-Amz-Target suffix; the table is in the body. */
export const dynamoKey: RequestKey = (req, body) => {
  const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? 'unknown';
  let table = '';
  try {
    table = String((JSON.parse(body.toString('utf8')) as { TableName?: unknown }).TableName ?? '');
  } catch {
    // Not JSON: counted by operation only.
  }
  return table ? `${op} ${table}` : op;
};

/** An HTTP API request as `METHOD /path`, with the path's ids replaced by `{id}` (a route, not a URL). */
export const routeKey =
  (idSegments: RegExp): RequestKey =>
  (req) => {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    return `${req.method} ${path.replace(idSegments, '$1{id}')}`;
  };

export async function startCountingProxy(target: string, keyOf: RequestKey): Promise<CountingProxy> {
  const to = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const key = keyOf(req, body);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const upstream = request(
        {
          agent,
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      upstream.end(body);
    });
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => new Map(counts),
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    reset: () => {
      counts = new Map();
    },
    close: async () => {
      // Keep-alive of the SDK and fetch clients: idle sockets must not keep close() waiting.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
