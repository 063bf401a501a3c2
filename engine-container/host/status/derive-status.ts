/**
 * A channel's status from what an engine task saw (pure): the item that started and the last error
 * this task met planning the channel (core/channel-status/status.ts has the meanings).
 */
import type { StatusReason, StatusRecord } from '../../../core/channel-status/status';

/** The item fields an `item_started` event carries (engine-container/src/playout/log-upkeep.ts). */
export interface StartedItem {
  seq: number;
  kind: string;
  startMs: number;
  /** A slate's or gap's reason: the error text, 'gap' (nothing scheduled), 'store_unavailable', 'live_segments_too_long'. */
  reason?: unknown;
}

/** The reason of an engine error code (VodLoadError, WebhookError, live source errors). */
export function reasonOfErrorCode(code: unknown): StatusReason {
  if (typeof code !== 'string') return 'item_failed';
  if (code === 'vod_malformed') return 'not_hls';
  if (code.startsWith('vod_')) return 'source_unreachable';
  if (code.startsWith('webhook_')) return 'webhook_failing';
  if (code.startsWith('live_')) return 'live_source_lost';
  return 'item_failed';
}

const ON_AIR_KINDS = new Set(['vod', 'preroll', 'live']);

/**
 * The status an item brings when it starts. A slate's reason is known for a schedule gap, an outage of
 * the store and a refused LIVE source; for a failed item only on the task that planned it (`lastErrorCode`): the
 * others write no reason, and the planner's write fills it in (status-store.ts).
 */
export function statusOfItem(
  item: StartedItem,
  seen: { lastErrorCode?: string; storeFailing: boolean },
): StatusRecord {
  const base = { itemSeq: item.seq, sinceMs: item.startMs };
  if (ON_AIR_KINDS.has(item.kind)) return { status: 'on_air', ...base };
  let reason: StatusReason | undefined;
  if (item.reason === 'gap') reason = 'nothing_scheduled';
  else if (item.reason === 'store_unavailable' || seen.storeFailing) reason = 'store_degraded';
  // The slate a refused LIVE source gets carries its code: planned ahead of the event, other items
  // start between the refusal and the slate, so the task's last error is gone by then.
  else if (item.reason === 'live_segments_too_long') reason = reasonOfErrorCode(item.reason);
  else if (seen.lastErrorCode !== undefined) reason = reasonOfErrorCode(seen.lastErrorCode);
  return { status: 'on_slate', ...base, ...(reason ? { reason } : {}) };
}

/** True when `next` says something `prev` did not: another status or another reason. */
export const isChange = (prev: StatusRecord | undefined, next: StatusRecord): boolean =>
  !prev || prev.status !== next.status || prev.reason !== next.reason;
