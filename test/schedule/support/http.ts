/**
 * An HTTP client for the API tests built on node:http, because fetch will not let a test choose the
 * Host header, and the schedule API's tenant is exactly that header.
 */
import { request } from 'node:http';

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text: string;
}

export interface HttpOptions {
  method?: string;
  host?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body). */
  rawBody?: string;
}

export function http(url: string, options: HttpOptions = {}): Promise<HttpResult> {
  const target = new URL(url);
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.host) headers.host = options.host;
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(target, { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}
