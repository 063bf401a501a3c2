/**
 * The engine's stream switch manager for scheduled channels: a channel's LIVE entries (made with
 * POST /channels/{id}/schedule) as LIVE events (type 1) of the engine contract, read from the schedule
 * API on every poll of the engine (scheduleRefreshIntervalMs). Every engine reads the same entries, so
 * every instance gets the same list (docs/live-mixing.md). Channels of other sources have none.
 */
import { parsePlaybackChannelId } from '../../../functions/schedule/playback-id';
import type { IStreamSwitchManager, ScheduleEvent } from '../../src/index';
import type { ScheduleSource } from './schedule-client';

/** How far back and ahead a poll reads: an event running now, and the next ones to truncate VOD2Live for. */
const PAST_MS = 12 * 3600_000;
const AHEAD_MS = 12 * 3600_000;

export class ScheduleSwitchManager implements IStreamSwitchManager {
  constructor(
    private readonly source: ScheduleSource,
    private readonly clock: () => number = Date.now,
  ) {}

  async getSchedule(channelId: string): Promise<ScheduleEvent[]> {
    const named = parsePlaybackChannelId(channelId);
    if (!named) return [];
    const now = this.clock();
    const entries = await this.source.schedule(named.id, now - PAST_MS, now + AHEAD_MS, named.tenant);
    return entries
      .filter((e) => e.type === 'LIVE')
      .map((e) => ({
        eventId: e.id,
        assetId: e.id,
        title: e.title,
        type: 1,
        start_time: e.start_time,
        end_time: e.end_time,
        uri: e.url,
      }));
  }
}
