/**
 * An AWS endpoint on loopback that accepts every request, reads it, and never answers: what a frozen or
 * black-holed service looks like to an SDK client. It records what it was sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HungEndpoint {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Every request so far: its x-amz-target (JSON protocols), method, path and body. */
  received: { target: string; method: string; path: string; body: string }[];
  close(): Promise<void>;
}

export async function startHungEndpoint(): Promise<HungEndpoint> {
  const received: HungEndpoint['received'] = [];
  const server: Server = createServer((req) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      received.push({
        target: String(req.headers['x-amz-target'] ?? ''),
        method: req.method ?? '',
        path: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
