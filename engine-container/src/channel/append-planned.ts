/**
 * Writing planned items into a channel's log, one after the other from a start instant, through the
 * store's conditional append: the only way items reach the log (extension, cuts, live mixing).
 */
import type { EngineConfig } from '../config';
import type { EngineEvents } from '../events';
import { renditionKeys } from '../ladder/output-ladder';
import type { Metrics } from '../metrics';
import { buildItem, type ChannelHeader } from '../playout/append';
import { draftOnLadder } from '../playout/audio-timeline';
import { itemEndMs } from '../playout/item';
import { itemSummary } from '../playout/log-upkeep';
import type { TrackResolver } from '../playout/window';
import type { Channel } from '../types';
import type { VodCache } from '../vod/vod-cache';
import { decideHeader } from './header';
import type { LogTail } from './log-tail';
import type { LadderSource, PlannedItem } from './planner';
import { markResumePoints } from './resume-after-live';

export interface AppendDeps {
  config: EngineConfig;
  vods: VodCache;
  resolve: TrackResolver;
  metrics: Metrics;
  events: EngineEvents;
}

/**
 * Appends planned items from startMs on; false when another writer got there first. Without a known
 * header, the items' own is decided (header.ts), from `upcoming` when they hold no VOD.
 */
export async function appendPlanned(
  deps: AppendDeps,
  channel: Channel,
  tail: LogTail,
  planned: readonly PlannedItem[],
  startMs: number,
  known?: ChannelHeader,
  upcoming?: LadderSource,
): Promise<boolean> {
  const { config, vods, resolve, metrics, events } = deps;
  const slateUri = channel.slate ?? config.defaultSlateUri;
  const slate = slateUri ? vods.get(slateUri) : undefined;
  const header = known ?? decideHeader(channel, planned, slate, config, upcoming);
  const keys = renditionKeys(header.ladder);
  let at = startMs;
  for (const p of planned) {
    const draft = draftOnLadder(p.draft, p.vod, header.ladder);
    markResumePoints(draft, tail.items, at);
    const item = buildItem(tail.items, draft, at, header, keys, resolve);
    if ((await tail.append(item)) === 'conflict') {
      metrics.inc('AppendConflicts');
      await tail.refresh();
      return false;
    }
    metrics.inc('ItemsAppended');
    events.emit(channel.id, 'item_appended', itemSummary(item));
    at = itemEndMs(item);
  }
  return true;
}
