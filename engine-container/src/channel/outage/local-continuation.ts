/**
 * Keeps a channel advancing while its store cannot be reached: the log is extended here alone with
 * the channel's slate (or the synthetic gap), which needs no asset manager and no store, and which
 * every engine decides alike (same slate, same start, same duration), so engines that each continued
 * alone write the same items when the store returns (LogTail.flush). Players see the slate, never a
 * frozen playlist.
 */
import type { Logger } from '../../../../core/logger';
import { renditionKeys } from '../../ladder/output-ladder';
import { buildItem, type ChannelHeader, logEndMs, nextStartMs } from '../../playout/append';
import { itemEndMs } from '../../playout/item';
import type { TrackResolver } from '../../playout/window';
import type { Channel } from '../../types';
import type { LogTail } from '../log-tail';
import type { Planner } from '../planner';

/** Log kept ahead of the clock while alone: players' buffer, plus room for one slow failed attempt. */
export function localLeadMs(header: ChannelHeader): number {
  return 2 * header.targetDurationS * 1000 + 10_000;
}

/** When the log kept alone must be extended again (never, before the channel's first item). */
export function aloneExtendAtMs(tail: LogTail): number {
  const last = tail.last;
  if (!last) return Number.POSITIVE_INFINITY;
  return logEndMs(tail.items) - localLeadMs({ ladder: last.ladder, targetDurationS: last.targetDurationS });
}

export interface LocalContinuation {
  channel: Channel;
  tail: LogTail;
  planner: Planner;
  resolve: TrackResolver;
  log: Logger;
  config: { clock: () => number; playlistWindowMs: number };
}

/** Appends slate items locally until the log reaches localLeadMs ahead; returns how many (never throws). */
export async function continueLocally(ctx: LocalContinuation): Promise<number> {
  try {
    return await extendAlone(ctx);
  } catch (err) {
    ctx.log.error('channel cannot continue alone', { channelId: ctx.channel.id, err });
    return 0;
  }
}

async function extendAlone(ctx: LocalContinuation): Promise<number> {
  const { tail } = ctx;
  const { clock } = ctx.config;
  const last = tail.last;
  // A channel that never went on air has no ladder to continue with: it waits for the store.
  if (!last) return 0;
  const header: ChannelHeader = { ladder: last.ladder, targetDurationS: last.targetDurationS };
  const keys = renditionKeys(header.ladder);
  let appended = 0;
  while (logEndMs(tail.items) < clock() + localLeadMs(header) && appended < 16) {
    let at = nextStartMs(tail.items, clock(), ctx.config.playlistWindowMs);
    const planned = await ctx.planner.slate(
      { channel: ctx.channel, startMs: at, targetDurationS: header.targetDurationS },
      'store_unavailable',
      { repetitions: 1 },
    );
    if (planned.length === 0) return appended;
    for (const { draft } of planned) {
      const item = buildItem(tail.items, draft, at, header, keys, ctx.resolve);
      tail.appendLocal(item);
      at = itemEndMs(item);
      appended++;
    }
  }
  return appended;
}
