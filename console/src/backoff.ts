/**
 * Waiting between retries: doubling from `baseMs` up to `maxMs`, so a channel that is not there yet or
 * a stream that keeps failing costs a request every few seconds, never a tight loop.
 */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

/** The wait before retry number `attempt` (0 for the first retry). */
export const backoffMs = (attempt: number, { baseMs, maxMs }: Backoff): number =>
  Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
