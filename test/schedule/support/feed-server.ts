/**
 * A node:http server for the scheduler tests: serves whatever a test puts at a path (Atom feeds,
 * HLS playlists), honours If-None-Match / If-Modified-Since like a real origin, can delay or fail a
 * path, and records every request so a test can check what the scheduler sent.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Resource {
  body: string;
  contentType?: string;
  etag?: string;
  lastModified?: string;
  status?: number;
  delayMs?: number;
  /** Sent in chunks without Content-Length, so only a bound enforced while reading can catch it. */
  chunked?: boolean;
}

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
}

export interface FeedServer {
  url: string;
  put(path: string, resource: Resource): void;
  remove(path: string): void;
  requests: RecordedRequest[];
  requestsTo(path: string): RecordedRequest[];
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const resources = new Map<string, Resource>();
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const resource = resources.get(path);
    const respond = (status: number, headers: Record<string, string> = {}, body = '') => {
      requests.push({ path, headers: req.headers, status });
      res.writeHead(status, headers);
      res.end(body);
    };
    if (!resource) return respond(404, { 'content-type': 'text/plain' }, 'not found');
    if (resource.delayMs) await new Promise((r) => setTimeout(r, resource.delayMs));
    const validators: Record<string, string> = {};
    if (resource.etag) validators.etag = resource.etag;
    if (resource.lastModified) validators['last-modified'] = resource.lastModified;
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    if (
      (resource.etag && inm === resource.etag) ||
      (!inm && resource.lastModified && ims === resource.lastModified)
    ) {
      return respond(304, validators);
    }
    const headers = { 'content-type': resource.contentType ?? 'text/plain', ...validators };
    if (!resource.chunked) return respond(resource.status ?? 200, headers, resource.body);
    requests.push({ path, headers: req.headers, status: resource.status ?? 200 });
    res.writeHead(resource.status ?? 200, headers);
    for (let i = 0; i < resource.body.length; i += 1024) res.write(resource.body.slice(i, i + 1024));
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    put: (path, resource) => resources.set(path, resource),
    remove: (path) => resources.delete(path),
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A media playlist of the given EXTINF values (as written, e.g. '2.002'). */
export function mediaPlaylist(durations: readonly string[]): string {
  const target = Math.ceil(Math.max(...durations.map(Number)));
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-PLAYLIST-TYPE:VOD',
    ...durations.flatMap((d, i) => [`#EXTINF:${d},`, `seg${i}.ts`]),
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');
}

/** A master playlist whose variants are the given relative URIs. */
export function masterPlaylist(variants: readonly string[]): string {
  return [
    '#EXTM3U',
    ...variants.flatMap((uri, i) => [
      `#EXT-X-STREAM-INF:BANDWIDTH=${(i + 1) * 300_000},RESOLUTION=320x180`,
      uri,
    ]),
    '',
  ].join('\n');
}

export interface FeedEntry {
  id: string;
  title: string;
  link: string;
}

export function atomFeed(entries: readonly FeedEntry[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>urn:uuid:5b1d7c3e-0000-4000-8000-000000000001</id>
  <title>Test feed</title>
  <updated>2024-05-01T00:00:00Z</updated>
${entries.map((e) => `  <entry><title>${e.title}</title><id>${e.id}</id><link>${e.link}</link></entry>`).join('\n')}
</feed>
`;
}
