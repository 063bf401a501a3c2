/**
 * The engine's stream switch manager for scheduled channels: a channel's LIVE entries (made with
 * POST /channels/{id}/schedule) as LIVE events (type 1) of the engine contract. The answers come from
 * the schedule watch (schedule-watch.ts), which reads a channel's LIVE entries only after they changed,
 * so these polls cost no request; it tells the engine which channels' entries changed
 * (takeChangedChannels), and every scheduleRefreshIntervalMs the engine asks only those.
 * Every engine reads the same entries, so every instance gets the same list
 * (docs/live-mixing.md). Channels of other sources have none.
 */
import { parsePlaybackChannelId } from '../../../functions/schedule/playback-id';
import type { IStreamSwitchManager, ScheduleEvent } from '../../src/index';
import type { ScheduleWatch } from './schedule-watch';

export class ScheduleSwitchManager implements IStreamSwitchManager {
  constructor(private readonly watch: Pick<ScheduleWatch, 'liveEvents' | 'takeChangedLive'>) {}

  takeChangedChannels(): Set<string> {
    return this.watch.takeChangedLive();
  }

  async getSchedule(channelId: string): Promise<ScheduleEvent[]> {
    if (!parsePlaybackChannelId(channelId)) return [];
    return this.watch.liveEvents(channelId);
  }
}
