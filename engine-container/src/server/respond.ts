/** Writing responses: CORS on everything, the one JSON error shape, HEAD without a body. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../../core/errors';
import type { ErrorLog } from './error-log';

export const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';

export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
};

export function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string>,
): void {
  res.writeHead(status, { ...CORS_HEADERS, 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  send(req, res, status, JSON.stringify(body), {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    ...headers,
  });
}

export function sendPlaylist(req: IncomingMessage, res: ServerResponse, body: string, maxAgeS: number): void {
  send(req, res, 200, body, { 'content-type': PLAYLIST_TYPE, 'cache-control': `public, max-age=${maxAgeS}` });
}

/** The path without its query (which may hold a reset key), clipped: what a log line may say of a URL. */
const pathOf = (req: IncomingMessage): string => (req.url ?? '/').split('?')[0]!.slice(0, 512);

/**
 * Answers an error in the one JSON shape. Every 5xx goes to the error log (a viewer's stall, seen from the
 * engine): an HttpError as a warning with its code, anything else as an error with its stack.
 */
export function sendError(req: IncomingMessage, res: ServerResponse, err: unknown, errors: ErrorLog): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof HttpError) {
    if (err.status >= 500)
      errors.answered({ method: req.method ?? 'GET', path: pathOf(req), status: err.status, code: err.code });
    const retry: Record<string, string> = err.status === 503 ? { 'retry-after': '2' } : {};
    sendJson(req, res, err.status, err, retry);
    return;
  }
  errors.answered({ method: req.method ?? 'GET', path: pathOf(req), status: 500, code: 'internal', err });
  sendJson(req, res, 500, { message: 'internal error', code: 'internal' });
}
