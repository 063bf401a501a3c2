/**
 * /eventstream/<channelId>: the channel's events as Server-Sent Events (`event: <type>`, `data: <JSON>`),
 * with a comment line every 15 s so proxies keep the connection open.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EngineEvents } from '../events';
import { CORS_HEADERS } from './respond';

const KEEP_ALIVE_MS = 15_000;

export class EventStreams {
  private readonly open = new Set<ServerResponse>();

  constructor(private readonly events: EngineEvents) {}

  serve(req: IncomingMessage, res: ServerResponse, channelId: string): void {
    res.writeHead(200, {
      ...CORS_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`: channel ${channelId}\n\n`);
    const unsubscribe = this.events.subscribe((event) => {
      if (event.channelId === channelId)
        res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    });
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.open.add(res);
    const close = () => {
      clearInterval(keepAlive);
      unsubscribe();
      this.open.delete(res);
    };
    req.on('close', close);
    res.on('close', close);
  }

  closeAll(): void {
    for (const res of this.open) res.end();
  }
}
