/**
 * HTTP exactly as written, for probing an API: node:http with the path sent byte for byte (fetch and
 * URL would normalise `..`, `%2e` and friends), any Host header (fetch will not let a test choose it),
 * and a deadline, so a server that hangs fails the test instead of stalling it.
 */
import { request } from 'node:http';

export interface Probe {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as is; objects are sent as JSON. */
  body?: string | Buffer | object;
  timeoutMs?: number;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; undefined when there is none or it is not JSON. */
  json: unknown;
  text: string;
  elapsedMs: number;
}

export function send(base: string, probe: Probe): Promise<Answer> {
  const url = new URL(base);
  const body =
    probe.body === undefined || typeof probe.body === 'string' || Buffer.isBuffer(probe.body)
      ? probe.body
      : JSON.stringify(probe.body);
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...probe.headers,
  };
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: probe.method ?? 'GET',
        path: probe.path,
        headers,
        // A Host the probe chose, even an empty one, goes out as is instead of node's default.
        setHost: !('host' in headers),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json,
            text,
            elapsedMs: Date.now() - started,
          });
        });
      },
    );
    req.setTimeout(probe.timeoutMs ?? 30_000, () =>
      req.destroy(new Error(`${probe.method ?? 'GET'} ${probe.path.slice(0, 80)} got no answer in time`)),
    );
    req.on('error', reject);
    req.end(body);
  });
}
