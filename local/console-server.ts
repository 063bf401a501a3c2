/**
 * `npm start`'s console: the built console (console/build.ts) under `/console/`, as CloudFront serves
 * it from S3 in AWS, and `/console/config.json` naming the APIs it talks to. Static files only: the
 * console calls the APIs itself, which allow its origin (CORS, local/gateway.ts).
 */

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { ConsoleConfig } from '../console/src/config';

export const CONSOLE_PATH = '/console/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

export interface ConsoleServer {
  /** http://localhost:<port>/console/ */
  url: string;
  origin: string;
  close(): Promise<void>;
}

export function startConsoleServer(
  dir: string,
  config: () => ConsoleConfig,
  port: number,
  host = '127.0.0.1',
): Promise<ConsoleServer> {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    if (path === '/' || path === '/console') {
      res.writeHead(302, { location: CONSOLE_PATH }).end();
      return;
    }
    if (!path.startsWith(CONSOLE_PATH) || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (path === `${CONSOLE_PATH}config.json`) {
      res.writeHead(200, { 'content-type': TYPES['.json']!, 'cache-control': 'no-store' });
      res.end(JSON.stringify(config()));
      return;
    }
    let rel = normalize(path.slice(CONSOLE_PATH.length));
    if (rel === '.' || rel.endsWith('/')) rel = join(rel, 'index.html');
    if (rel.startsWith('..')) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(join(dir, rel));
      res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const bound = (server.address() as AddressInfo).port;
      const origin = `http://localhost:${bound}`;
      resolve({
        url: `${origin}${CONSOLE_PATH}`,
        origin,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
