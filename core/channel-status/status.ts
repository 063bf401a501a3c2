/**
 * A channel's health as the APIs show it (docs/design.md "Channel status"): `starting` until the
 * engine has put anything on air, then `on_air` while content (a VOD, a preroll, a live source) plays
 * and `on_slate` while the slate or the synthetic gap plays, with the reason. Engine tasks derive it
 * from their events (engine-container/host/status/) and write it to the store (status-store.ts); the
 * channel and schedule APIs read it and merge it into every channel they return (`statusView`).
 */
import { z } from 'zod';

export const channelStatuses = ['starting', 'on_air', 'on_slate'] as const;
export type ChannelStatus = (typeof channelStatuses)[number];

export const statusReasons = [
  /** The source's playlist did not answer (404, a timeout, a refused or unknown address). */
  'source_unreachable',
  /** The source answered, but not with an HLS playlist the engine can play. */
  'not_hls',
  /** A WebHook channel's webhook did not answer, or answered something unusable. */
  'webhook_failing',
  /** The engine cannot reach its shared store and keeps the channel on air alone with the slate. */
  'store_degraded',
  /** A live source (live event, LIVE entry) stopped or could not be played. */
  'live_source_lost',
  /** The schedule has nothing at this time. */
  'nothing_scheduled',
  /** Any other failure to plan the channel's next item. */
  'item_failed',
] as const;
export type StatusReason = (typeof statusReasons)[number];

/** What an engine task writes: the status, its reason, and the log item that brought it. */
export interface StatusRecord {
  status: ChannelStatus;
  reason?: StatusReason;
  /** The playout item whose start made this status (-1: before the first item). */
  itemSeq: number;
  /** When this status began (the item's start, which may precede the channel's creation), Unix ms. */
  sinceMs: number;
  /** When the store last wrote it, Unix ms (set by the store on read). */
  writtenMs?: number;
}

/** The fields every channel of both APIs carries. */
export interface StatusFields {
  status: ChannelStatus;
  statusReason?: StatusReason;
  /** ISO 8601 UTC: since when the channel has had this status (absent while starting without news). */
  statusSince?: string;
}

/** The fields as the OpenAPI documents show them. */
export const statusFieldsSchema = {
  status: z
    .enum(channelStatuses)
    .describe(
      '`starting` until the engine has put anything on air; `on_air`: content plays; `on_slate`: the slate plays',
    ),
  statusReason: z
    .enum(statusReasons)
    .optional()
    .describe('why the slate plays (also while starting, once the first attempt failed)'),
  statusSince: z.string().optional().describe('ISO 8601 UTC: since when'),
};

/**
 * The status to show of a channel made at `createdAtMs` (undefined: not known) given the record read
 * (undefined: none yet). A record written before the channel was made belongs to an earlier channel
 * of the same name, so the channel is still starting.
 */
export function statusView(record: StatusRecord | undefined, createdAtMs?: number): StatusFields {
  const writtenMs = record?.writtenMs ?? record?.sinceMs;
  if (!record || (createdAtMs !== undefined && writtenMs !== undefined && writtenMs < createdAtMs))
    return { status: 'starting' };
  return {
    status: record.status,
    ...(record.reason ? { statusReason: record.reason } : {}),
    statusSince: new Date(record.sinceMs).toISOString(),
  };
}
