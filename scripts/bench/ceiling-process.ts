/**
 * The ceiling: a raw node:http server in its own process, answering every request with one prebuilt
 * playlist and the engine's playlist headers. The engine cannot serve faster than this on this machine
 * with this load generator: its throughput is reported as a share of this one, measured the same way.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CORS_HEADERS, PLAYLIST_TYPE } from '../../engine-container/src/server/respond';
import { announceReady, serveRequests } from './ipc';
import { CpuMeter } from './process-meter';

export interface CeilingProcessInfo {
  port: number;
}

async function main(): Promise<void> {
  let body = '#EXTM3U\n';
  let contentLength = String(Buffer.byteLength(body));
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      ...CORS_HEADERS,
      'content-length': contentLength,
      'content-type': PLAYLIST_TYPE,
      'cache-control': 'public, max-age=4',
    });
    res.end(body);
  });
  // The engine's defaults (keepAliveTimeout 5 s), so both keep connections alike.
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 6000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const meter = new CpuMeter();
  serveRequests({
    setBody: ({ text }: { text: string }) => {
      body = text;
      contentLength = String(Buffer.byteLength(body));
      return contentLength;
    },
    meterStart: () => meter.start(),
    meterStop: () => meter.stop(),
    stop: () => {
      server.close();
      server.closeAllConnections();
      setImmediate(() => process.exit(0));
    },
  });
  announceReady({ port: (server.address() as AddressInfo).port } satisfies CeilingProcessInfo);
}

if (process.send) await main();
