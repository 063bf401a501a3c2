import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { keepAliveSurvivesIdle } from '../../scripts/rehearse/journeys/keep-alive';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function serve(keepAliveMs: number): Promise<string> {
  server = createServer((_req, res) => res.end('{"status":"ok"}'));
  server.keepAliveTimeout = keepAliveMs;
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the keep-alive check', () => {
  it('passes when the server keeps the idle connection and answers on it', async () => {
    const url = await serve(5000);
    expect(await keepAliveSurvivesIdle(url, 300)).toMatch(/200 OK.*200 OK/);
  });

  it('fails, saying after how long, when the server closes the idle connection first', async () => {
    // Node closes an idle socket about a second after keepAliveTimeout: 2.5 s idle is well past it.
    const url = await serve(100);
    await expect(keepAliveSurvivesIdle(url, 2500)).rejects.toThrow(
      /closed the idle keep-alive connection after \d\.\d s/,
    );
  });
});
