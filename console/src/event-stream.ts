/**
 * The engine's public event stream (/eventstream/<channel>, Server-Sent Events), kept open. The
 * browser's EventSource gives up for good on an HTTP error (the engine answers 404 until it has picked
 * a new channel up) and retries a dropped connection at a fixed pace, so every failure closes it and a
 * new one is opened after a backoff; the wait starts over only once a stream stayed open a while.
 */
import { type Backoff, backoffMs } from './backoff';

export type StreamState =
  | { kind: 'connecting' }
  | { kind: 'open' }
  | { kind: 'waiting'; retryAt: number; attempt: number };

/** Event type -> handler of its parsed `data` field (the public event: `{ type, time, data }`). */
export type StreamHandlers = Record<
  string,
  (event: { time?: number; data: Record<string, unknown> }) => void
>;

const RETRY: Backoff = { baseMs: 250, maxMs: 15_000 };
/** A stream open this long counts as healthy: the next failure retries from the shortest wait. */
const HEALTHY_MS = 10_000;

/** Opens the stream; calls `onState` on every change; returns the function that closes it for good. */
export function keepEventStream(
  url: string,
  handlers: StreamHandlers,
  onState: (state: StreamState) => void,
  onOpen: () => void = () => undefined,
): () => void {
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let openedAt = 0;
  const connect = () => {
    onState({ kind: 'connecting' });
    const s = new EventSource(url);
    source = s;
    for (const [type, handle] of Object.entries(handlers))
      s.addEventListener(type, (e) => {
        try {
          handle(JSON.parse((e as MessageEvent<string>).data));
        } catch {
          // one unreadable event is skipped, the stream goes on
        }
      });
    s.onopen = () => {
      openedAt = Date.now();
      onState({ kind: 'open' });
      onOpen();
    };
    s.onerror = () => {
      s.close();
      if (openedAt && Date.now() - openedAt >= HEALTHY_MS) attempt = 0;
      openedAt = 0;
      const wait = backoffMs(attempt, RETRY);
      attempt++;
      onState({ kind: 'waiting', retryAt: Date.now() + wait, attempt });
      timer = setTimeout(connect, wait);
    };
  };
  connect();
  return () => {
    clearTimeout(timer);
    source?.close();
  };
}
