/**
 * /eventstream/<channelId>: the channel's events as Server-Sent Events (`event: <type>`, `data: <JSON>`),
 * with a comment line every 15 s so proxies keep the connection open. Each open stream holds a socket
 * and a subscriber for as long as the client likes: the number of streams is capped per channel and
 * in all, and a client over the cap gets a 503 it may retry, not a stream. Events are sent in their
 * public form (public-event.ts): no error text, no URL credentials.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../../core/errors';
import type { EngineEvents } from '../events';
import { publicEvent } from './public-event';
import { CORS_HEADERS } from './respond';

const KEEP_ALIVE_MS = 15_000;

export interface EventStreamLimits {
  /** Open streams one channel may have. */
  perChannel: number;
  /** Open streams the whole process may have. */
  total: number;
}

const tooManyStreams = (scope: string) =>
  new HttpError(503, 'too_many_event_streams', `too many open event streams ${scope}; retry later`);

export class EventStreams {
  private readonly open = new Set<ServerResponse>();
  private readonly perChannel = new Map<string, number>();

  constructor(
    private readonly events: EngineEvents,
    private readonly limits: EventStreamLimits,
  ) {}

  /** Opens a stream, or throws a 503 HttpError when a cap is reached. */
  serve(req: IncomingMessage, res: ServerResponse, channelId: string): void {
    if (this.open.size >= this.limits.total) throw tooManyStreams('on this engine');
    const channelCount = this.perChannel.get(channelId) ?? 0;
    if (channelCount >= this.limits.perChannel) throw tooManyStreams(`for channel ${channelId}`);
    this.perChannel.set(channelId, channelCount + 1);
    res.writeHead(200, {
      ...CORS_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`: channel ${channelId}\n\n`);
    const unsubscribe = this.events.subscribe(
      (event) => res.write(`event: ${event.type}\ndata: ${JSON.stringify(publicEvent(event))}\n\n`),
      channelId,
    );
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.open.add(res);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(keepAlive);
      unsubscribe();
      this.open.delete(res);
      const left = (this.perChannel.get(channelId) ?? 1) - 1;
      if (left > 0) this.perChannel.set(channelId, left);
      else this.perChannel.delete(channelId);
    };
    req.on('close', close);
    res.on('close', close);
  }

  /** Open streams, in all and for one channel (for /health and tests). */
  count(channelId?: string): number {
    return channelId === undefined ? this.open.size : (this.perChannel.get(channelId) ?? 0);
  }

  closeAll(): void {
    for (const res of this.open) res.end();
  }
}
