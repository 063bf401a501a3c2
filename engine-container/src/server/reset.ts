/**
 * GET|POST /reset/<channel>: restarts a channel's playout for every viewer, so it takes the reset key
 * (header x-reset-key, or ?key=). Without a configured key it is refused (403 reset_disabled): a missing
 * secret must not open the door. Every call is logged, with who asked and what came of it; the key never.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { forbidden, HttpError } from '../../../core/errors';
import type { Logger } from '../../../core/logger';
import { decodeSegment } from './path-segment';
import type { RequestTarget } from './request-target';
import { sendJson } from './respond';

export interface ResetContext {
  /** The configured key (sessionResetKey); undefined refuses every reset. */
  key: string | undefined;
  log: Logger;
  /** Resets the channel; answers its new start (Unix ms), or throws an HttpError (404 for no channel). */
  reset(channelId: string): Promise<number | undefined>;
}

/** Compares digests, which are always of equal length: the time taken says nothing of the key's length. */
function keyMatches(given: string | undefined, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

/** The header keeps the key out of URLs (and so out of access logs); `?key=` still works. */
function resetKeyOf(req: IncomingMessage, url: RequestTarget): string | undefined {
  const header = req.headers['x-reset-key'];
  return (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('key') ?? undefined;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Who asked: the peer (the ALB, behind it) and the addresses it says the request came through. */
function caller(req: IncomingMessage, segment: string): Record<string, unknown> {
  const forwarded = req.headers['x-forwarded-for'];
  let channelId: string;
  try {
    channelId = decodeSegment(segment);
  } catch {
    channelId = segment;
  }
  return {
    method: req.method,
    channelId: clip(channelId, 200),
    sourceIp: req.socket.remoteAddress,
    forwardedFor: forwarded === undefined ? undefined : clip(String(forwarded), 512),
  };
}

async function reset(ctx: ResetContext, req: IncomingMessage, url: RequestTarget, segment: string) {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST')
    throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${url.pathname}`);
  if (ctx.key === undefined)
    throw forbidden('reset_disabled', 'channel reset is disabled: this engine has no reset key');
  if (!keyMatches(resetKeyOf(req, url), ctx.key))
    throw forbidden('invalid_reset_key', 'missing or wrong reset key');
  const channelId = decodeSegment(segment);
  const startMs = await ctx.reset(channelId);
  return { channelId, resetAtMs: startMs ?? null };
}

export async function serveReset(
  ctx: ResetContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestTarget,
  segment: string,
): Promise<void> {
  try {
    const body = await reset(ctx, req, url, segment);
    sendJson(req, res, 200, body);
    ctx.log.info('reset request', { ...caller(req, segment), outcome: 'reset', status: 200 });
  } catch (err) {
    const status = err instanceof HttpError ? err.status : 500;
    const outcome = err instanceof HttpError ? err.code : 'internal';
    ctx.log.warn('reset request', { ...caller(req, segment), outcome, status });
    throw err;
  }
}
