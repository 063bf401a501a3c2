/**
 * The ceiling: a raw node:http server in its own process that replays the engine's own answers, captured
 * once from it (captured-responses.ts): each request gets the bytes and headers the engine sent for the
 * same path, from a map lookup. The engine cannot serve faster than this on this machine with this load
 * generator: its throughput is reported as a share of this one, measured the same way.
 */

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announceReady, serveRequests } from '../ipc';
import { type CapturedResponse, captureResponses } from './captured-responses';

export interface CeilingProcessInfo {
  port: number;
}

/** What the capture held: for the report (the bytes the ratio is about). */
export interface CaptureSummary {
  paths: number;
  /** Answers other than 200 (the engine was not ready for them: the run says so). */
  notOk: number;
  meanBodyBytes: number;
}

async function main(): Promise<void> {
  let responses = new Map<string, CapturedResponse>();
  const missing: CapturedResponse = {
    status: 404,
    headers: { 'content-length': '0' },
    body: Buffer.alloc(0),
  };
  const server = createServer((req, res) => {
    const r = responses.get(req.url ?? '') ?? missing;
    res.writeHead(r.status, r.headers);
    res.end(r.body);
  });
  // The engine's defaults (keepAliveTimeout 5 s), so both keep connections alike.
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 6000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serveRequests({
    /** Captures the engine's answer to every path in pathsFile (one per line); replaces what was held. */
    capture: async ({ port, pathsFile }: { port: number; pathsFile: string }): Promise<CaptureSummary> => {
      const paths = (await readFile(pathsFile, 'utf8')).split('\n').filter(Boolean);
      responses = new Map();
      responses = await captureResponses(port, paths);
      let bytes = 0;
      let notOk = 0;
      for (const r of responses.values()) {
        bytes += r.body.length;
        if (r.status !== 200) notOk++;
      }
      return { paths: responses.size, notOk, meanBodyBytes: bytes / Math.max(1, responses.size) };
    },
    stop: () => {
      server.close();
      server.closeAllConnections();
      setImmediate(() => process.exit(0));
    },
  });
  announceReady({ port: (server.address() as AddressInfo).port } satisfies CeilingProcessInfo);
}

if (process.send) await main();
