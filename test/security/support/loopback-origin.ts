/**
 * A loopback-only HTTP origin for the security tests: serves fixed bodies or redirects per path and
 * records every request (path and Host header), so a test can show a refused URL was never reached.
 * It binds 127.0.0.1 or another 127/8 address: no test traffic ever leaves the machine.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer =
  | { body: string; status?: number; contentType?: string; delayMs?: number }
  | { redirect: string; status?: number };

export interface LoopbackOrigin {
  /** http://<address>:<port> */
  url: string;
  port: number;
  put(path: string, answer: Answer): void;
  requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

export async function startLoopbackOrigin(address = '127.0.0.1'): Promise<LoopbackOrigin> {
  if (!address.startsWith('127.')) throw new Error(`a test origin must be on loopback, not ${address}`);
  const answers = new Map<string, Answer>();
  const requests: LoopbackOrigin['requests'] = [];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ path, headers: req.headers });
    const answer = answers.get(path);
    if (!answer) {
      res.writeHead(404).end('not found');
    } else if ('redirect' in answer) {
      res.writeHead(answer.status ?? 302, { location: answer.redirect }).end();
    } else {
      // A slow origin is part of a scenario (the deadline), not a wait for a condition.
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'text/plain' });
      res.end(answer.body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${address}:${port}`,
    port,
    put: (path, answer) => answers.set(path, answer),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The address decision of a deployment, except that `publicStandIn` (a 127/8 address) counts as
 * public: a test's "public origin" on loopback, so the fetch path runs without leaving the machine.
 */
export const treatAsPublic =
  (publicStandIn: string, isBlocked: (ip: string) => boolean) =>
  (ip: string): boolean =>
    ip !== publicStandIn && isBlocked(ip);
