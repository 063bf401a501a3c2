/**
 * A static file server for tests (fixtures, VOD origins), with faults a test can inject on a path
 * prefix: an error status, a delay (to trip a client's timeout) or a malformed body.
 * GET and HEAD only, one byte range at most (as real origins serve EXT-X-MAP/EXT-X-BYTERANGE), nothing
 * served from outside the root directory.
 */
import { open } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { byteRange } from '../../core/files/byte-range';
import { keepIdleConnections } from '../../local/gateway';

export type Fault =
  /** Answer with this status (404, 500...) and a short text body. */
  | { kind: 'status'; status: number }
  /** Wait this long before answering normally. */
  | { kind: 'delay'; ms: number }
  /** 200 with the right content type and length, but bytes that are neither a playlist nor media. */
  | { kind: 'malformed' };

export interface ServedRequest {
  method: string;
  /** Decoded path, without the query string. */
  path: string;
  status: number;
  /** When it was answered (Unix ms). */
  atMs: number;
}

export interface StaticServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:43121 */
  url: string;
  port: number;
  /** Faults apply to every path starting with the prefix; the longest matching prefix wins. null clears. */
  setFault(pathPrefix: string, fault: Fault | null): void;
  clearFaults(): void;
  /** Requests answered so far, oldest first. */
  requests(): readonly ServedRequest[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.vtt': 'text/vtt; charset=utf-8',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a request path to a file under root, or undefined when it would leave root (`..`, encoded
 * separators, NUL bytes) or is not decodable.
 */
export function resolveUnderRoot(root: string, requestPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return undefined;
  }
  // Refuse rather than fold: a request naming `..` is never a fixture.
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').includes('..')) return undefined;
  const absoluteRoot = path.resolve(root);
  const resolved = path.resolve(absoluteRoot, `.${path.posix.normalize(`/${decoded}`)}`);
  return resolved === absoluteRoot || resolved.startsWith(absoluteRoot + path.sep) ? resolved : undefined;
}

/** Deterministic bytes that no HLS parser or demuxer accepts: no #EXTM3U, no TS sync byte, no MP4 box. */
export function garbage(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    const b = (i * 131 + 7) % 251;
    bytes[i] = b === 0x47 ? 0 : b; // 0x47 is the MPEG-TS sync byte
  }
  bytes.write('<!-- not media -->', 0);
  return bytes;
}

function longestPrefixFault(faults: Map<string, Fault>, requestPath: string): Fault | undefined {
  let best: string | undefined;
  for (const prefix of faults.keys()) {
    if (requestPath.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : faults.get(best);
}

export async function startStaticServer(
  rootDir: string,
  options: { port?: number } = {},
): Promise<StaticServer> {
  const root = path.resolve(rootDir);
  const faults = new Map<string, Fault>();
  const served: ServedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const record = (req: IncomingMessage, requestPath: string, status: number) =>
    served.push({ method: req.method ?? '', path: requestPath, status, atMs: Date.now() });

  const sendText = (
    req: IncomingMessage,
    res: ServerResponse,
    requestPath: string,
    status: number,
    text: string,
  ) => {
    record(req, requestPath, status);
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(req.method === 'HEAD' ? undefined : text);
  };

  const serveFile = async (
    req: IncomingMessage,
    res: ServerResponse,
    requestPath: string,
    malformed: boolean,
  ) => {
    const file = resolveUnderRoot(root, requestPath);
    // Opened once, then measured and read through the same handle: a live source's packager replaces
    // its playlists by renaming, and a size read from one file with bytes from its successor would cut
    // the playlist mid-line (a segment URI without its last characters, then a 404).
    const handle = file ? await open(file, 'r').catch(() => undefined) : undefined;
    const info = handle ? await handle.stat().catch(() => undefined) : undefined;
    if (!file || !handle || !info?.isFile()) {
      await handle?.close();
      sendText(req, res, requestPath, 404, 'not found\n');
      return;
    }
    const asked = byteRange(req.headers.range, info.size);
    // Answered whole, as an origin that ignores what it cannot satisfy.
    const range = asked === 'unsatisfiable' ? undefined : asked;
    const status = range ? 206 : 200;
    const { start, end } = range ?? { start: 0, end: info.size - 1 };
    record(req, requestPath, status);
    res.writeHead(status, {
      'content-type': contentTypeFor(file),
      'content-length': end - start + 1,
      'cache-control': 'no-cache',
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${start}-${end}/${info.size}` } : {}),
    });
    if (req.method === 'HEAD' || malformed) {
      await handle.close();
      res.end(malformed && req.method !== 'HEAD' ? garbage(info.size).subarray(start, end + 1) : undefined);
    } else
      handle
        .createReadStream({ start, end })
        .on('error', () => res.destroy())
        .pipe(res);
  };

  const server = createServer((req, res) => {
    const requestPath = (req.url ?? '/').split('?')[0] ?? '/';
    res.setHeader('access-control-allow-origin', '*');
    // A browser may preflight a cross-origin Range request.
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-headers': 'range',
        'access-control-allow-methods': 'GET, HEAD',
      });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      sendText(req, res, requestPath, 405, 'method not allowed\n');
      return;
    }
    const fault = longestPrefixFault(faults, requestPath);
    const answer = () => {
      if (fault?.kind === 'status') {
        sendText(req, res, requestPath, fault.status, `injected fault: ${fault.status}\n`);
        return;
      }
      serveFile(req, res, requestPath, fault?.kind === 'malformed').catch(() => {
        if (!res.headersSent) sendText(req, res, requestPath, 500, 'internal error\n');
        else res.destroy();
      });
    };
    if (fault?.kind === 'delay') {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) answer();
      }, fault.ms);
      timers.add(timer);
    } else {
      answer();
    }
  });
  keepIdleConnections(server);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    setFault(pathPrefix, fault) {
      if (fault === null) faults.delete(pathPrefix);
      else faults.set(pathPrefix, fault);
    },
    clearFaults: () => faults.clear(),
    requests: () => served,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive clients (ffmpeg, fetch) would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
