/**
 * A channel's first playlist request waits for the channel to be on air: its log must cover the
 * present. The wait advances the channel and watches each append, because the first run may go on
 * well past the present, one slow store write at a time.
 */
import type { LogTail } from './log-tail';

export interface OnAirChannel {
  readonly tail: LogTail;
  isOnAir(): boolean;
  advance(): Promise<void>;
}

/** True once on air; false when not within maxWaitMs, or when a run ends without changing the log. */
export async function waitUntilOnAir(channel: OnAirChannel, maxWaitMs: number): Promise<boolean> {
  if (channel.isOnAir()) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), maxWaitMs);
  });
  try {
    for (;;) {
      const before = channel.tail.version;
      const run = channel.advance().then(() => 'ended' as const);
      let outcome: 'ended' | 'changed' | 'expired';
      do {
        outcome = await Promise.race([run, channel.tail.changed().then(() => 'changed' as const), expired]);
        if (channel.isOnAir()) return true;
      } while (outcome === 'changed');
      // A run that made progress but stopped short (appends per advance are bounded): run again.
      if (outcome === 'expired' || channel.tail.version === before) return false;
    }
  } finally {
    clearTimeout(timer);
  }
}
