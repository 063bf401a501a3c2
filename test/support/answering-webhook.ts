/**
 * A customer's WebHook for browser tests: answers the engine's `GET ?channelId=` with answer(n) for the
 * n-th call, and records which channel asked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnections } from '../../local/gateway';

export interface AnsweringWebhook {
  url: string;
  /** The channelId of each call, oldest first. */
  calls(): string[];
  close(): Promise<void>;
}

export async function startWebhook(answer: (n: number) => unknown): Promise<AnsweringWebhook> {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    const channelId = new URL(req.url ?? '/', 'http://hook').searchParams.get('channelId') ?? '';
    const body = JSON.stringify(answer(calls.length));
    calls.push(channelId);
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/next`,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
