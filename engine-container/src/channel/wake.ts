/**
 * When a channel next needs an advance: when its log must be extended (lookahead), when an item
 * starts (announced then), or when live mixing must look at its source (live/live-mixer.ts). Only the
 * items after the last one that has started can start later, and an item cut by a reset never starts:
 * scanning back from the end finds the next start in O(upcoming).
 */
import { logEndMs } from '../playout/append';
import type { PlayoutItem } from '../playout/item';

export function wakeAtMs(
  items: readonly PlayoutItem[],
  nowMs: number,
  leadMs: number,
  liveWakeMs: number | undefined,
): number {
  let nextStart = Number.POSITIVE_INFINITY;
  for (let k = items.length - 1; k >= 0 && items[k]!.startMs > nowMs; k--)
    nextStart = Math.min(nextStart, items[k]!.startMs);
  // A LIVE event holds the log's end: its own schedule replaces the lookahead.
  if (liveWakeMs !== undefined) return Math.min(liveWakeMs, nextStart);
  return Math.min(logEndMs(items) - leadMs, nextStart);
}
