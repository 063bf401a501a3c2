/**
 * When a channel next needs an advance: when its log must be extended (lookahead), when an item
 * starts (announced then), or when live mixing must look at its source (live/live-mixer.ts). Only the
 * items after the last one that has started can start later, and an item cut by a reset never starts:
 * scanning back from the end finds the next start in O(upcoming).
 */
import type { EngineConfig } from '../config';
import { logEndMs } from '../playout/append';
import type { PlayoutItem } from '../playout/item';

/**
 * Channels created together with VODs of the same length change VOD in the same second, for ever: if
 * they also planned their next item in the same second, 10,000 channels would plan in one burst of a
 * fifth of a second of CPU. Each channel keeps up to this much more log ahead, a fixed share of it per
 * channel id (the same on every engine, so writer-lease holders and followers agree), which spreads
 * the planning over this many milliseconds. More lookahead is never less safe.
 */
export const PLAN_SPREAD_MS = 8000;
/**
 * A channel on air that must plan plans more than its lead in the same run (one wake, one lease, one
 * read of the log for several short items; ChannelPlayout.extend): between PLAN_BATCH_MS and twice
 * that, a fixed share per channel id (planBatchMs), so its next planning is that much later. Every
 * wake's fixed cost (the tick, the lease, the store reads, the run's promises) was as large as an
 * item's own planning, and a loop of 12 s VODs planned every 12 s. Shares that differ make channels
 * that planned together plan apart afterwards. More lookahead is never less safe; an item an hour
 * long is still planned alone.
 */
export const PLAN_BATCH_MS = 20_000;
/** Shares are whole steps of this: channels in one step are due together and share a tick. */
const PLAN_SPREAD_STEP_MS = 250;

/**
 * A share in [0, 1) fixed by a channel id and a seed: FNV-1a of the id, then murmur3's final mix (ids
 * that differ in their last character only, c1, c2…, would otherwise get nearly the same share).
 */
function shareOf(channelId: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < channelId.length; i++) h = Math.imul(h ^ channelId.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

/** Whole steps of PLAN_SPREAD_STEP_MS in [0, rangeMs). */
const steppedMs = (share: number, rangeMs: number): number =>
  Math.floor(share * (rangeMs / PLAN_SPREAD_STEP_MS)) * PLAN_SPREAD_STEP_MS;

/** The channel's share of PLAN_SPREAD_MS (FNV-1a's offset basis as the seed). */
export function planSpreadMs(channelId: string): number {
  return steppedMs(shareOf(channelId, 0x811c9dc5), PLAN_SPREAD_MS);
}

/** How far past its lead the channel plans once it must (PLAN_BATCH_MS to twice that). */
export function planBatchMs(channelId: string): number {
  return PLAN_BATCH_MS + steppedMs(shareOf(channelId, 0x2f6b1c3d), PLAN_BATCH_MS);
}

/** A channel without its first items (no content yet, or its first VOD failed) looks again after this. */
const START_RETRY_MS = 2000;
/** The longest a waiting channel goes without looking again, when a change would wake it (waitingRetryMs). */
const WAITING_RETRY_MAX_MS = 30_000;

/**
 * When a channel still waiting for its first items looks again, after `attempts` looks that found none.
 * An asset manager that reports changes (contentChangedFrom) wakes the channel at once when its content
 * changes, so the channel backs off, doubling up to WAITING_RETRY_MAX_MS: 5,000 schedule channels with no
 * entry asked every 2 s were 2,500 runs a second of an engine task. Any other asset manager is asked
 * every START_RETRY_MS, as asking is its only way to tell.
 */
export function waitingRetryMs(attempts: number, reportsChanges: boolean): number {
  if (!reportsChanges) return START_RETRY_MS;
  return Math.min(WAITING_RETRY_MAX_MS, START_RETRY_MS * 2 ** Math.min(attempts, 8));
}

/** A channel waiting for content reads its log at most this often (logReadTtlMs). */
const WAITING_READ_MS = 30_000;

/**
 * How old a channel's view of its log may be before an advance reads it again. A channel waiting for
 * content reads it rarely: it re-reads under the lease before it writes, so it costs the store little.
 */
export function logReadTtlMs(waiting: boolean, config: Pick<EngineConfig, 'sharedLogMaxAgeMs'>): number {
  return waiting ? Math.max(config.sharedLogMaxAgeMs, WAITING_READ_MS) : config.sharedLogMaxAgeMs;
}

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

/**
 * How much log a channel keeps ahead of now: two target durations, plus one ask and VOD load; with
 * leases (leaseTtlMs), plus a lease's life and a second ask and load, so that a holder dying just
 * before its append is replaced before players run out (README, "High availability": the timing
 * budget); plus the channel's share of the planning spread.
 */
export function leadMs(
  targetDurationS: number,
  config: Pick<EngineConfig, 'getNextVodTimeoutMs' | 'vodLoadTimeoutMs'>,
  leaseTtlMs: number | undefined,
  spreadMs: number,
): number {
  const planMs = config.getNextVodTimeoutMs + config.vodLoadTimeoutMs;
  const failoverMs = leaseTtlMs === undefined ? 0 : leaseTtlMs + planMs;
  return 2 * targetDurationS * 1000 + planMs + failoverMs + spreadMs;
}
